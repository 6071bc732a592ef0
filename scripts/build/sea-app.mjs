// The program inside the single executable: the npm build's two parts (two-part-bundle.mjs) with
// every package bundled, then each file made CommonJS, since a SEA loads no ES module: its
// import()s become require()s that src/sea/asset-modules.ts answers from the assets.
import { existsSync } from "node:fs";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { buildTwoParts } from "./two-part-bundle.mjs";
import { CJS_LEAVES, ENTRY, ROOT, startupTrim } from "./cli-options.mjs";
import { packageDefines } from "./package-defines.mjs";

/** A module `x.ts` of ours with an `x.sea.ts` beside it is built from that one instead. */
const seaVariants = {
  name: "sea-variants",
  setup(build) {
    build.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) => {
      if (!args.importer.startsWith(`${ROOT}/src/`)) return undefined;
      const variant = `${args.resolveDir}/${args.path.replace(/\.js$/, ".sea.ts")}`;
      return existsSync(variant) ? { path: variant } : undefined;
    });
  },
};

/** What listhen imports lazily for features petstore never turns on: left out (listhen-unused.cjs). */
const listhenUnused = {
  name: "listhen-unused",
  setup(build) {
    const unused = /^(jiti|untun|tinyclip|@parcel\/watcher(-wasm)?|crossws\/adapters\/node|\.\.\/chunks\/xdg-open\.mjs)$/;
    build.onResolve({ filter: unused }, (args) =>
      args.kind === "dynamic-import" && args.importer.includes("/node_modules/listhen/") ? { path: `${ROOT}/scripts/build/listhen-unused.cjs` } : undefined,
    );
  },
};

/**
 * jq-web's Emscripten module reads jq.wasm from beside its JS, and no file lies beside the
 * executable: its one call of the module's factory is given the bytes from the SEA's assets
 * (`wasmBinary`, which Emscripten then compiles instead of reading a file; package.mjs adds it).
 */
const jqWebWasm = {
  name: "jq-web-wasm",
  setup(build) {
    build.onLoad({ filter: /\/node_modules\/jq-web\/jq\.js$/ }, async (args) => {
      const code = await readFile(args.path, "utf8");
      const call = "jq = jq().then(";
      if (code.split(call).length !== 2) throw new Error(`${args.path}: no single "${call}" to give jq.wasm to; has jq-web changed?`);
      return { contents: code.replace(call, `jq = jq({ wasmBinary: require("node:sea").getAsset(${JSON.stringify(JQ_WASM_ASSET)}) }).then(`), loader: "js" };
    });
  },
};

/** The SEA asset that holds jq-web's jq.wasm. */
export const JQ_WASM_ASSET = "jq-web/jq.wasm";

/** Builds the files into `outdir` (emptied first); returns their names. */
export async function buildSeaApp(esbuild, outdir) {
  await rm(outdir, { recursive: true, force: true });
  await buildTwoParts(esbuild, {
    entry: ENTRY,
    outdir,
    // --jq's module with jq-web's JS (157 kB) as a leaf of its own, as jq-web stays out of the npm
    // build's start-up.
    cjsLeaves: [...CJS_LEAVES, "src/cli/internal/jq.ts"],
    root: ROOT,
    // The version and licence written in, as the npm build does (package-defines.mjs).
    options: { platform: "node", target: "node20.19", logLevel: "warning", define: packageDefines(ROOT), plugins: [seaVariants, listhenUnused, jqWebWasm, startupTrim] },
  });
  const names = (await readdir(outdir)).filter((name) => /\.c?js$/.test(name));
  for (const name of names) await toCommonJs(esbuild, `${outdir}/${name}`);
  return names;
}

async function toCommonJs(esbuild, file) {
  const result = await esbuild.transform(await readFile(file, "utf8"), {
    format: "cjs",
    target: "node20.19",
    // import("./x.js") and import("node:fs") become a require() in a promise.
    supported: { "dynamic-import": false },
    sourcefile: file,
    // A CommonJS file has no import.meta: a package that needs its URL would break at run time.
    // std-env (inside listhen) only falls back to import.meta.env after process.env.
    define: { "import.meta.env": "undefined" },
    logOverride: { "empty-import-meta": "error" },
    logLevel: "warning",
  });
  await writeFile(file, result.code);
}
