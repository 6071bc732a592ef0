// The single executable's module loader. Its program is the npm build's files made CommonJS
// (scripts/build/sea-app.mjs: cli.cjs for start-up, a file for each lazily loaded part, import()
// turned into require()), kept as assets: a SEA's own `require` loads only Node's built-in
// modules, and it cannot import(). Each file is compiled on first use through vm.Script, with the
// V8 code cache the build made for it.
import { isBuiltin } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";

/** Where the files and their code caches come from: SEA assets, or a directory when the build trains the caches. */
export interface ModuleSource {
  code(name: string): string;
  cache(name: string): Uint8Array | undefined;
}

export interface AssetModules {
  /** The exports of `./name` (one of the build's files), or of a built-in module. */
  require(specifier: string): unknown;
  /** Each file compiled so far, by name: the build writes their code caches after a run. */
  compiled(): ReadonlyMap<string, Script>;
}

interface LoadedModule {
  exports: unknown;
}

/** Node's CommonJS wrapper: the code cache belongs to this exact text, so the build compiles the same. */
export function wrapModule(code: string): string {
  return `(function (exports, require, module, __filename, __dirname) { ${code}\n});`;
}

/** The loader over `source`; `builtin` is the require that loads Node's modules. */
export function createAssetModules(source: ModuleSource, builtin: (id: string) => unknown): AssetModules {
  const modules = new Map<string, LoadedModule>();
  const scripts = new Map<string, Script>();
  const directory = dirname(process.execPath);
  const load = (name: string): unknown => {
    const known = modules.get(name);
    // As require() does: a module required again while it runs (a cycle) gives what it has so far.
    if (known) return known.exports;
    const module: LoadedModule = { exports: {} };
    modules.set(name, module);
    try {
      const script = new Script(wrapModule(source.code(name)), { filename: join(directory, name), cachedData: source.cache(name) });
      scripts.set(name, script);
      const run = script.runInThisContext() as (...args: unknown[]) => void;
      run.call(module.exports, module.exports, requireFrom, module, join(directory, name), directory);
    } catch (error) {
      // As require() does: a file that failed is run again by the next require, not half-given.
      modules.delete(name);
      throw error;
    }
    return module.exports;
  };
  const requireFrom = (specifier: string): unknown => {
    if (specifier.startsWith("./")) return load(specifier.slice(2));
    if (isBuiltin(specifier)) return builtin(specifier);
    // As a missing package fails in require(): code that tries an optional one catches this code.
    throw Object.assign(new Error(`Cannot find module '${specifier}': it is not part of this executable`), { code: "MODULE_NOT_FOUND" });
  };
  return { require: requireFrom, compiled: () => scripts };
}
