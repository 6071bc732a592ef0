// The program inside the single executable: the npm build's two parts (two-part-bundle.mjs) with
// every package bundled, then each file made CommonJS, since a SEA loads no ES module: its
// import()s become require()s that src/sea/asset-modules.ts answers from the assets.
import { existsSync } from "node:fs";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { buildTwoParts } from "./two-part-bundle.mjs";
import { CJS_LEAVES, ENTRY, ROOT, startupTrim } from "./cli-options.mjs";

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

/** Builds the files into `outdir` (emptied first); returns their names. */
export async function buildSeaApp(esbuild, outdir) {
  await rm(outdir, { recursive: true, force: true });
  await buildTwoParts(esbuild, {
    entry: ENTRY,
    outdir,
    // jq-wasm (1.3 MB, only for --jq) as a leaf of its own, as it stays out of the npm build's start-up.
    cjsLeaves: [...CJS_LEAVES, "node_modules/jq-wasm/dist/index.js"],
    root: ROOT,
    options: { platform: "node", target: "node20.19", logLevel: "warning", plugins: [seaVariants, listhenUnused, startupTrim] },
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
