// The CLI as two esbuild builds, so that starting it reads one CommonJS file instead of twenty ESM files.
//
// With `splitting`, esbuild puts every module shared by the start-up code and any lazily imported
// module into a chunk of its own, one per set of importers: `--help` opened cli.js and 20 such
// chunks, and each file costs the ESM loader a resolve, a read and a compile. Here:
// 1. the start-up part: src/cli/main.ts and everything it imports statically, in dist/cli.cjs
//    alone. CommonJS, required by bin/petstore.js (CommonJS too), so that a command that loads
//    nothing lazily (--help) never starts Node's ESM loader. Its `await import()`s of other modules
//    point at the lazy part's entries, by fixed names.
// 2. the lazy part: those modules (the commands' work, undici, the prompts, the server), ESM split
//    as before. What they import from the start-up part is not bundled again but taken from
//    cli.cjs (`__petstoreModules`, through `require`: the instance bin/petstore.js loaded), so a class such
//    as ApiError exists once and `instanceof` holds.
import { createHash } from "node:crypto";
import { basename, relative } from "node:path";

const STARTUP = "petstore-startup";
const SHARED = "petstore-shared";
const STARTUP_FILE = "cli.cjs";
const LEAF = "petstore-cjs-leaf";

/**
 * Builds `entry` into `${outdir}/cli.cjs` and its lazily imported modules beside it.
 * `options` are esbuild's common options (platform, target, plugins, external, banner, ...).
 * `cjsLeaves` are paths from `root`: a module of ours, or a package's main file (the package
 * then becomes a leaf of its own where start-up code imports it lazily, instead of being bundled).
 */
export async function buildTwoParts(esbuild, { entry, outdir, root, options, cjsLeaves = [] }) {
  const leaves = new Set(cjsLeaves.map((path) => `${root}/${path}`));
  const lazyName = (path) => `${basename(path).replace(/\.[cm]?[jt]s$/, "")}-${hash(relative(root, path))}`;
  // Pass 0: what start-up loads statically, with every lazy import left out.
  const startup = await startupModules(esbuild, { entry, root, options, lazyName, leaves });
  // Pass 1 (not written): which of those the lazy part imports, and the names each exports.
  const lazyEntries = Object.fromEntries([...startup.lazyTargets].map((path) => [lazyName(path), path]));
  const lazyBuild = (shareNames, write) =>
    esbuild.build({
      ...options,
      // The probe sees the CommonJS leaves too: their shared modules need export names as well.
      entryPoints: write ? Object.fromEntries(Object.entries(lazyEntries).filter(([, path]) => !leaves.has(path))) : lazyEntries,
      outdir,
      bundle: true,
      splitting: true,
      format: "esm",
      write,
      metafile: true,
      // The probe's shared modules are empty: its warnings about their missing exports mean nothing.
      ...(shareNames === undefined ? { logLevel: "silent" } : {}),
      plugins: [...(options.plugins ?? []), sharePlugin(startup.modules, root, shareNames)],
    });
  const probe = await lazyBuild(undefined, false);
  const shared = [...new Set(Object.keys(probe.metafile.inputs).filter((key) => key.startsWith(`${SHARED}:`)).map((key) => key.slice(SHARED.length + 1).replace(/\?from=.*$/, "")))];
  const names = await exportNames(esbuild, shared, root, options);
  // The start-up part, exporting the shared modules' namespaces for the lazy part.
  await esbuild.build({
    ...options,
    stdin: { contents: startupEntry(entry, shared, root), resolveDir: root, sourcefile: "cli-entry.js", loader: "js" },
    outfile: `${outdir}/${STARTUP_FILE}`,
    bundle: true,
    splitting: false,
    format: "cjs",
    // The ESM banner (a `require` made from import.meta.url) has no place in CommonJS.
    banner: undefined,
    plugins: [...(options.plugins ?? []), lazyImportPlugin(startup.modules, lazyName, undefined, leaves)],
  });
  await lazyBuild(names, true);
  for (const path of leaves) {
    if (!startup.lazyTargets.has(path)) throw new Error(`${path} is not imported lazily by start-up code`);
    await esbuild.build({
      ...options,
      entryPoints: { [lazyName(path)]: path },
      outdir,
      outExtension: { ".js": ".cjs" },
      bundle: true,
      format: "cjs",
      banner: undefined,
      plugins: [...(options.plugins ?? []), sharePlugin(startup.modules, root, names)],
    });
  }
}

async function startupModules(esbuild, { entry, root, options, lazyName, leaves }) {
  const lazyTargets = new Set();
  const result = await esbuild.build({
    ...options,
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    outdir: "/nonexistent",
    format: "esm",
    plugins: [...(options.plugins ?? []), lazyImportPlugin(new Set(), lazyName, lazyTargets, leaves)],
  });
  const modules = new Set(Object.keys(result.metafile.inputs).map((key) => `${root}/${key}`));
  for (const path of modules) lazyTargets.delete(path);
  return { modules, lazyTargets };
}

/**
 * `await import("./x.js")` of one of ours: kept in the bundle when x is start-up code anyway,
 * else left as an import of the lazy part's entry for x (recorded in `targets`). A package's
 * lazy import is left to esbuild unless the package is one of the leaves.
 */
function lazyImportPlugin(startup, lazyName, targets, leaves = new Set()) {
  return {
    name: "lazy-imports",
    setup(build) {
      // A CommonJS leaf is reached through a stub bundled into cli.cjs, which requires it when the
      // import() runs: no ESM loader, and no cjs-module-lexer pass over it as import() would make.
      build.onResolve({ filter: /\.cjs$/, namespace: LEAF }, (args) => ({ path: args.path, external: true }));
      build.onLoad({ filter: /.*/, namespace: LEAF }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(`./${lazyName(args.path)}.cjs`)});\n`,
        loader: "js",
      }));
      build.onResolve({ filter: /^[^/]/ }, async (args) => {
        if (args.kind !== "dynamic-import" || args.pluginData === "resolving" || args.path.startsWith("node:")) return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: "resolving" });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        if (resolved.external || startup.has(resolved.path)) return undefined;
        if (!args.path.startsWith(".") && !leaves.has(resolved.path)) return undefined;
        targets?.add(resolved.path);
        if (leaves.has(resolved.path)) return { path: resolved.path, namespace: LEAF };
        return { path: `./${lazyName(resolved.path)}.js`, external: true };
      });
    },
  };
}

/** In the lazy part, a module of ours that start-up already evaluated is taken from cli.cjs. */
function sharePlugin(startup, root, names) {
  const shareable = (path) => startup.has(path) && path.startsWith(`${root}/src/`) && path.endsWith(".ts");
  return {
    name: "share-startup-modules",
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${STARTUP}$`) }, () => ({ path: `./${STARTUP_FILE}`, external: true }));
      build.onResolve({ filter: /^\./ }, async (args) => {
        if (args.namespace === SHARED || args.pluginData === "resolving") return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: "resolving" });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        if (!shareable(resolved.path)) return undefined;
        // One stub per importer: stubs shared by two entries would become chunks of their own,
        // each one more file to load; a copy costs a line, and the module it reads is still one.
        return { path: relative(root, resolved.path), namespace: SHARED, suffix: `?from=${relative(root, args.importer)}` };
      });
      build.onLoad({ filter: /.*/, namespace: SHARED }, (args) => ({
        contents: names === undefined ? "" : sharedModule(args.path, names.get(args.path)),
        resolveDir: root,
        loader: "js",
      }));
    },
  };
}

function sharedModule(key, exported) {
  if (exported === undefined) throw new Error(`no export names for ${key}`);
  const list = exported.join(", ");
  // require, not import: ESM importing a CommonJS file runs cjs-module-lexer over all of it to find
  // its exports (measured: a seventh of `pets list`); require returns the instance bin/ loaded.
  return `const { __petstoreModules } = require("${STARTUP}");\nexport const { ${list} } = __petstoreModules[${JSON.stringify(key)}];\n`;
}

function startupEntry(entry, shared, root) {
  const imports = shared.map((key, index) => `import * as m${index} from ${JSON.stringify(`${root}/${key}`)};`);
  const table = shared.map((key, index) => `  ${JSON.stringify(key)}: m${index},`);
  return [`export * from ${JSON.stringify(entry)};`, ...imports, "export const __petstoreModules = {", ...table, "};", ""].join("\n");
}

/** The names each module exports, `export *` included: esbuild's metafile of each bundled alone. */
async function exportNames(esbuild, keys, root, options) {
  if (keys.length === 0) return new Map();
  const result = await esbuild.build({
    ...options,
    entryPoints: keys.map((key) => `${root}/${key}`),
    outbase: root,
    outdir: "/nonexistent",
    bundle: true,
    packages: "external",
    external: undefined,
    write: false,
    metafile: true,
    format: "esm",
    sourcemap: false,
    plugins: [],
  });
  const names = new Map();
  for (const output of Object.values(result.metafile.outputs)) {
    if (output.entryPoint !== undefined) names.set(output.entryPoint, output.exports.filter((name) => name !== "default"));
  }
  for (const key of keys) if (names.get(key)?.length === 0) throw new Error(`${key} is shared but exports nothing by name`);
  return names;
}

function hash(text) {
  return createHash("sha256").update(text).digest("base64url").slice(0, 8).replace(/[-_]/g, "X").toUpperCase();
}
