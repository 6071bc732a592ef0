// The single executable's module loader (src/sea/asset-modules.ts) over files held in memory, as
// it holds the SEA's assets; the executable itself is tried in test/release/.
import { describe, expect, it } from "vitest";
import { createAssetModules, wrapModule } from "../../src/sea/asset-modules.js";
import { Script } from "node:vm";
import { createRequire } from "node:module";

const nodeRequire = createRequire(import.meta.url);

function loaderOver(files: Record<string, string>, caches: Record<string, Uint8Array> = {}) {
  const read: string[] = [];
  const source = {
    code(name: string) {
      read.push(name);
      const code = files[name];
      if (code === undefined) throw new Error(`no asset ${name}`);
      return code;
    },
    cache: (name: string) => caches[name],
  };
  return { modules: createAssetModules(source, nodeRequire), read };
}

describe("the executable's module loader", () => {
  it("runs each file once, on first require, and gives every requirer the same exports", () => {
    const { modules, read } = loaderOver({
      "cli.cjs": 'exports.runs = (exports.runs ?? 0) + 1; exports.lazy = () => require("./chunk-A.js");',
      "chunk-A.js": 'const cli = require("./cli.cjs"); exports.sameCli = cli; exports.value = 42;',
    });
    const cli = modules.require("./cli.cjs") as { runs: number; lazy(): { sameCli: unknown; value: number } };
    expect(read).toEqual(["cli.cjs"]);
    const chunk = cli.lazy();
    expect(chunk.value).toBe(42);
    expect(chunk.sameCli).toBe(cli);
    expect(cli.lazy()).toBe(chunk);
    expect(cli.runs).toBe(1);
    expect(read).toEqual(["cli.cjs", "chunk-A.js"]);
  });

  it("gives a file required again while it runs what it has exported so far, as require() does", () => {
    const { modules } = loaderOver({
      "a.js": 'exports.early = 1; exports.fromB = require("./b.js").seen; exports.late = 2;',
      "b.js": 'exports.seen = { ...require("./a.js") };',
    });
    expect(modules.require("./a.js")).toEqual({ early: 1, fromB: { early: 1 }, late: 2 });
  });

  it("runs a file that threw again at the next require, as require() does", () => {
    const { modules, read } = loaderOver({ "a.js": "throw new Error('not here');" });
    expect(() => modules.require("./a.js")).toThrow("not here");
    expect(() => modules.require("./a.js")).toThrow("not here");
    expect(read).toEqual(["a.js", "a.js"]);
  });

  it("loads Node's built-in modules, and fails as a missing package does for anything else", () => {
    const { modules } = loaderOver({
      "a.js": 'exports.join = require("node:path").join; try { require("pg-native"); } catch (error) { exports.code = error.code; exports.message = error.message; }',
    });
    expect(modules.require("./a.js")).toEqual({
      join: nodeRequire("node:path").join,
      code: "MODULE_NOT_FOUND",
      message: "Cannot find module 'pg-native': it is not part of this executable",
    });
  });

  it("compiles with the code cache made for the same wrapped text, and V8 takes it", () => {
    const code = "exports.sum = (a, b) => a + b;";
    const cache = new Script(wrapModule(code)).createCachedData();
    const { modules } = loaderOver({ "a.js": code }, { "a.js": cache });
    expect((modules.require("./a.js") as { sum(a: number, b: number): number }).sum(2, 3)).toBe(5);
    expect(modules.compiled().get("a.js")?.cachedDataRejected).toBe(false);
  });
});
