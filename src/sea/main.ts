// The single executable's main script (scripts/package.mjs): the CLI, loaded from the assets
// with their code caches, run as bin/petstore.js runs it.
import { getAsset, getRawAsset } from "node:sea";
import { createAssetModules, type ModuleSource } from "./asset-modules.js";

interface Cli {
  main(argv: readonly string[], ctx: unknown): Promise<number>;
  createProcessContext(): unknown;
}

const assets: ModuleSource = {
  code: (name) => getAsset(`app/${name}`, "utf8"),
  cache(name) {
    try {
      // Read in place, not copied: V8 only reads it.
      return new Uint8Array(getRawAsset(`cache/${name}`) as ArrayBuffer);
    } catch {
      return undefined;
    }
  },
};

// A SEA's own require loads built-in modules only, which is all the loader asks of it.
const cli = createAssetModules(assets, require).require("./cli.cjs") as Cli;
void cli.main(process.argv.slice(2), cli.createProcessContext()).then((code) => {
  process.exitCode = code;
});
