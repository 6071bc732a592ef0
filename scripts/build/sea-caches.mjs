// The V8 code caches of the executable's files. Node's own `useCodeCache` caches only what V8
// compiles before running, which left `petstore --help` half again slower than `node -e ''`. So
// the build runs the program first, as the executable will (src/sea/train.ts, under this same
// Node binary, so V8 accepts the caches): a server, and client commands against it; each file
// gets the cache of the run that loaded it (the client's first), every other file one made
// without running.
import { spawn, spawnSync } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ADMIN_KEY = "ps_build_training_admin_key_0123456789";

/** Writes a cache for each of `names` (files of `appDir`) into `cacheDir`; `trainer` is src/sea/train.ts built. */
export async function trainCodeCaches({ trainer, appDir, cacheDir, names }) {
  const work = await mkdtemp(join(tmpdir(), "petstore-sea-train-"));
  try {
    const env = {
      PATH: process.env.PATH,
      HOME: work,
      XDG_CONFIG_HOME: join(work, "config"),
      XDG_STATE_HOME: join(work, "state"),
      XDG_CACHE_HOME: join(work, "cache"),
      NO_COLOR: "1",
      PETSTORE_ADMIN_KEY: ADMIN_KEY,
    };
    const server = await startServer(trainer, appDir, join(work, "server"), { ...env, PETSTORE_DB: join(work, "db.json") });
    try {
      run(trainer, ["run", appDir, join(work, "client"), ...CLIENT_RUNS], { ...env, PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: ADMIN_KEY });
    } finally {
      await server.stop();
    }
    await rm(cacheDir, { recursive: true, force: true });
    await mkdir(cacheDir, { recursive: true });
    const trained = new Set();
    for (const from of ["server", "client"]) {
      for (const name of await readdir(join(work, from))) {
        await copyFile(join(work, from, name), join(cacheDir, name));
        trained.add(name);
      }
    }
    const rest = names.filter((name) => !trained.has(name));
    if (rest.length > 0) run(trainer, ["compile", appDir, cacheDir, ...rest], env);
    // A refused cache costs nothing but start-up time, silently: refuse the build instead.
    run(trainer, ["verify", appDir, cacheDir, ...names], env);
    return { trained: trained.size, compiled: rest.length };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** What the client runs: help, and the commonest commands with what they print. */
const CLIENT_RUNS = [
  ["--help"],
  ["pets", "add", "--name", "Rex", "--category", "1"],
  ["pets", "list"],
  ["pets", "list", "--json"],
].map((argv) => JSON.stringify(argv));

function run(trainer, args, env) {
  const result = spawnSync(process.execPath, [trainer, ...args], { env, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`sea-train ${args[0]} ${args.slice(3).join(" ")} failed (${result.status}):\n${result.stderr}`);
}

/** The server's training run: until it has listened, then SIGTERM, after which it writes its caches. */
async function startServer(trainer, appDir, cacheDir, env) {
  const argv = JSON.stringify(["serve", "--port", "0", "--log-format", "text", "--quiet"]);
  const child = spawn(process.execPath, [trainer, "run", appDir, cacheDir, argv], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  const baseUrl = await new Promise((resolve, reject) => {
    const read = (chunk) => {
      output += chunk;
      const match = /(http:\/\/127\.0\.0\.1:\d+\/v1)\b/.exec(output);
      if (match) resolve(match[1]);
    };
    child.stdout.setEncoding("utf8").on("data", read);
    child.stderr.setEncoding("utf8").on("data", read);
    void exited.then((code) => reject(new Error(`the training server exited (${code}) before listening:\n${output}`)));
  });
  return {
    baseUrl,
    async stop() {
      child.kill("SIGTERM");
      const code = await exited;
      if (code !== 0) throw new Error(`the training server exited ${code}:\n${output}`);
    },
  };
}
