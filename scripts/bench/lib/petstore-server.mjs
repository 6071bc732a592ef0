// `petstore serve` as the bench starts it: the built CLI over one db file, on a free port, quiet,
// no admin key from the environment. Every scenario that needs a petstore starts it here.
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startProcess } from "./processes.mjs";

/**
 * Starts it and resolves once it listens, with its `origin` and `startMs` (spawn to the listening
 * line). `config` names a serve config file, `args` are more flags (`--redis …`), `nodeArgs` node's own (`--cpu-prof`); `kill()` ends it
 * at once (SIGKILL), `stop()` gently.
 */
export async function startPetstore({ root, db, config, args = [], nodeArgs = [], name = "petstore serve", timeoutMs }) {
  const started = performance.now();
  const server = await startProcess(
    name,
    process.execPath,
    [...nodeArgs, join(root, "bin/petstore.js"), "serve", "--port", "0", ...(db ? ["--db", db] : []), "--quiet", ...(config ? ["--config", config] : []), ...args],
    {
      env: { PETSTORE_ADMIN_KEY: "", PETSTORE_SERVE_CONFIG: "" },
      ready: (output) => /listening on (http:\/\/\S+)\/v1/.exec(output)?.[1],
      ...(timeoutMs ? { timeoutMs } : {}),
    },
  );
  return {
    ...server,
    origin: server.ready,
    startMs: performance.now() - started,
    kill: () => process.kill(-server.pid, "SIGKILL"),
  };
}

/** Runs `work({ pid, origin })` against a petstore started for it, and stops it after. */
export async function withPetstoreServer(options, work) {
  const server = await startPetstore(options);
  try {
    return await work({ pid: server.pid, origin: server.origin });
  } finally {
    await server.stop();
  }
}
