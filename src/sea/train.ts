// Makes the single executable's code caches (scripts/package.mjs runs this with the same Node
// binary the executable is made from, so V8 takes the caches). `run`: runs each command line
// given (JSON arrays) through the CLI, as the executable would, then writes a cache of each file
// it loaded: those hold every function the commands compiled, not only the top level. `compile`:
// a cache of each file named, compiled without running (for the parts no command trained).
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
    for (const name of rest) {
      const script = new Script(wrapModule(readFileSync(join(appDir, name), "utf8")), { filename: name });
      writeFileSync(join(cacheDir, name), script.createCachedData());
    }
    return;
  }
  if (mode !== "run") throw new Error("usage: train run|compile <app dir> <cache dir> <command line as JSON | file>...");
  const modules = createAssetModules({ code: (name) => readFileSync(join(appDir, name), "utf8"), cache: () => undefined }, require);
  const cli = modules.require("./cli.cjs") as Cli;
  for (const line of rest) {
    const code = await cli.main(JSON.parse(line) as string[], cli.createProcessContext());
    if (code !== 0) throw new Error(`${line} exited ${code}`);
  }
  for (const [name, script] of modules.compiled()) writeFileSync(join(cacheDir, name), script.createCachedData());
}

const [mode, appDir = "", cacheDir = "", ...rest] = process.argv.slice(2);
train(mode, appDir, cacheDir, rest).catch((error: unknown) => {
  process.stderr.write(`sea train: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
