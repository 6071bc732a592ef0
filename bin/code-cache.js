// Loads dist/cli.cjs as require() would, but compiled with a V8 code cache kept in the user's
// cache directory ($XDG_CACHE_HOME/petstore, else ~/.cache/petstore), as Node 22's
// module.enableCompileCache() does for every module; Node 20 has only vm.Script's cachedData.
// Compiling the 300 KB start-up file, and then each function it runs, was the largest part of
// `petstore --help` left. The cache is named by Node's version, the architecture and the build's id
// (written into cli.cjs by scripts/build/code-cache-ready.mjs), and V8 rejects one made by another
// V8 or with other flags. A missing, stale or unreadable cache is compiled without; one that cannot
// be written is not written; NODE_DISABLE_COMPILE_CACHE=1 (Node 22's switch) turns it off.
"use strict";
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require("node:fs");
// The CommonJS loader's Module class, as `module.constructor`: require("node:module") would load
// the ESM loader's modules, which a command that imports nothing lazily otherwise never does.
const Module = module.constructor;
const { dirname, join } = require("node:path");
const { Script } = require("node:vm");

/** Requires `file` (a CommonJS module) through the code cache; returns its exports and a function that saves a new cache if there was none. */
function requireWithCodeCache(file) {
  const source = readFileSync(file, "utf8");
  const cacheFile = cacheFileFor(source);
  const cachedData = cacheFile === undefined ? undefined : readOrUndefined(cacheFile);
  const script = new Script(Module.wrap(source), { filename: file, cachedData });
  const loaded = new Module(file, module);
  loaded.filename = file;
  loaded.paths = Module._nodeModulePaths(dirname(file));
  // Registered before it runs, as require() does: the lazily loaded chunks require this same instance.
  Module._cache[file] = loaded;
  script.runInThisContext().call(loaded.exports, loaded.exports, Module.createRequire(file), loaded, file, dirname(file));
  loaded.loaded = true;
  const save = () => {
    if (cacheFile === undefined || (cachedData !== undefined && !script.cachedDataRejected)) return;
    writeQuietly(cacheFile, script.createCachedData());
  };
  return { exports: loaded.exports, save };
}

function cacheFileFor(source) {
  const env = process.env;
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const id = /\/\/ petstore-build=([0-9a-f]+)\n/.exec(source.slice(-200))?.[1];
  if (id === undefined) return undefined;
  // As the config and state files find their directories (src/cli/state-file.ts).
  const base = env.XDG_CACHE_HOME || join(require("node:os").homedir(), ".cache");
  return join(base, "petstore", `cli-${id}-node${process.versions.node}-${process.arch}.v8cache`);
}

function readOrUndefined(file) {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written whole under a temporary name and renamed, so a reader never sees half of it; any failure leaves no cache. */
function writeQuietly(file, data) {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(temp, data, { mode: 0o600 });
    renameSync(temp, file);
  } catch {
    try {
      require("node:fs").rmSync(temp, { force: true });
    } catch {
      // Nothing to clean up.
    }
  }
}

module.exports = { requireWithCodeCache };
