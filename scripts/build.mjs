// Bundles the CLI into dist/: one CommonJS file for start-up, dist/cli.cjs (commander, chalk and
// every module main.ts imports statically; before, esbuild's splitting made an ESM cli.js and 20
// chunks), and lazily imported ESM chunks for each command, so `pets list` never loads the server
// (scripts/build/two-part-bundle.mjs). The engines are
// chunks of their own too (open-backends.ts imports each with `await import()` once chosen), with
// pg and the Redis client bundled inside them: `serve --db file.json` never evaluates either (checked by
// test/support/lazy-engines.test.ts), and PostgreSQL+Redis starts faster than with the drivers
// left in node_modules as some hundred separate files.
import * as esbuild from "esbuild";
import { rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { buildTwoParts } from "./build/two-part-bundle.mjs";
import { prepareForCodeCache } from "./build/code-cache-ready.mjs";
import { CJS_LEAVES, ENTRY, ROOT, startupTrim } from "./build/cli-options.mjs";
import { packageDefines } from "./build/package-defines.mjs";

const outdir = new URL("../dist/", import.meta.url).pathname;
await rm(outdir, { recursive: true, force: true });
await buildTwoParts(esbuild, {
  entry: ENTRY,
  outdir,
  cjsLeaves: CJS_LEAVES,
  root: ROOT,
  options: {
    platform: "node",
    target: "node20.19",
    sourcemap: "linked",
    logLevel: "warning",
    plugins: [startupTrim],
    // The version and licence only, as literals: importing package.json bundled all of it.
    define: packageDefines(ROOT),
    // Server-only packages stay in node_modules: only `serve` imports them, lazily. jq-web too: an
    // Emscripten module with a 2.7 MB jq.wasm beside it that only `--jq` imports, lazily.
    external: ["h3", "h3/*", "srvx", "srvx/*", "listhen", "lowdb", "lowdb/*", "pino", "prom-client", "jq-web"],
    // commander is CommonJS and requires node built-ins; ESM output needs a real require.
    banner: {
      js: "import { createRequire as __petstoreCreateRequire } from 'node:module'; const require = __petstoreCreateRequire(import.meta.url);",
    },
  },
});
// `petstore/testing` (package.json "exports"): the in-process throwaway server for other people's
// tests, one ESM file; its types are types/testing.d.ts.
await esbuild.build({
  entryPoints: [fileURLToPath(new URL("../src/testing/index.ts", import.meta.url))],
  outfile: `${outdir}testing.js`,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20.19",
  logLevel: "warning",
  external: ["h3", "h3/*", "srvx", "srvx/*", "listhen", "lowdb", "lowdb/*", "pino", "prom-client", "pg"],
  banner: {
    js: "import { createRequire as __petstoreCreateRequire } from 'node:module'; const require = __petstoreCreateRequire(import.meta.url);",
  },
});
// bin/code-cache.js compiles cli.cjs with a V8 code cache; this readies it (no import() of its own, a build id).
await prepareForCodeCache(outdir);
