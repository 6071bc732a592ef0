// Makes the single executable's code caches (scripts/package.mjs runs this with the same Node
// binary the executable is made from, so V8 takes the caches). `run`: runs each command line
// given (JSON arrays) through the CLI, as the executable would, then writes a cache of each file
// it loaded: those hold every function the commands compiled, not only the top level. `compile`:
// a cache of each file named, compiled without running (for the parts no command trained).
// `verify`: fails unless V8, in this fresh process, takes the cache of each file named.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Script } from "node:vm";
import { createAssetModules, wrapModule } from "./asset-modules.js";

interface Cli {
  main(argv: readonly string[], ctx: unknown): Promise<number>;
  createProcessContext(): unknown;
}

async function train(mode: string | undefined, appDir: string, cacheDir: string, rest: string[]): Promise<void> {
  mkdirSync(cacheDir, { recursive: true });
  if (mode === "compile") {
    for (const name of rest) writeFileSync(join(cacheDir, name), compile(appDir, name).createCachedData());
    return;
  }
  if (mode === "verify") {
    const refused = rest.filter((name) => compile(appDir, name, readFileSync(join(cacheDir, name))).cachedDataRejected);
    if (refused.length > 0) throw new Error(`V8 refuses the code cache of ${refused.join(", ")}`);
    return;
  }
  if (mode !== "run") throw new Error("usage: train run|compile|verify <app dir> <cache dir> <file | command line as JSON>...");
  const modules = createAssetModules({ code: (name) => readFileSync(join(appDir, name), "utf8"), cache: () => undefined }, builtinWithSteadyFlags);
  const cli = modules.require("./cli.cjs") as Cli;
  for (const line of rest) {
    const code = await cli.main(JSON.parse(line) as string[], cli.createProcessContext());
    if (code !== 0) throw new Error(`${line} exited ${code}`);
  }
  for (const [name, script] of modules.compiled()) writeFileSync(join(cacheDir, name), script.createCachedData());
}

function compile(appDir: string, name: string, cachedData?: Buffer): Script {
  return new Script(wrapModule(readFileSync(join(appDir, name), "utf8")), { filename: name, cachedData });
}

/**
 * Node's modules, but V8's flags stay as a fresh process has them: the program sets some as it
 * runs (the HTTP transport, --liftoff-only), and V8 refuses a cache made under other flags.
 */
function builtinWithSteadyFlags(id: string): unknown {
  const loaded = process.getBuiltinModule(id) as Record<string, unknown>;
  return id === "node:v8" || id === "v8" ? { ...loaded, setFlagsFromString: () => undefined } : loaded;
}

const [mode, appDir = "", cacheDir = "", ...rest] = process.argv.slice(2);
train(mode, appDir, cacheDir, rest).catch((error: unknown) => {
  process.stderr.write(`sea train: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
