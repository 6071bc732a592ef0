// bin/code-cache.js: the built CLI compiles dist/cli.cjs with a V8 code cache kept in
// $XDG_CACHE_HOME/petstore. Real subprocesses of the built CLI, a temporary cache directory.
import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BIN } from "../helpers/serve-process.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "petstore-code-cache-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function run(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    env: { ...process.env, NO_COLOR: "1", XDG_CACHE_HOME: dir, PETSTORE_CONFIG: join(dir, "none.json"), NODE_DISABLE_COMPILE_CACHE: "", ...env },
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function cacheFiles(): Promise<string[]> {
  return readdir(join(dir, "petstore")).catch(() => []);
}

describe("the start-up file's code cache", () => {
  it("is written by the first run, named by the build and Node, then read without being written again", async () => {
    const first = run(["--help"]);
    expect(first.status).toBe(0);
    const [file, ...others] = await cacheFiles();
    expect(others).toEqual([]);
    expect(file).toMatch(new RegExp(`^cli-[0-9a-f]{16}-node${process.versions.node}-${process.arch}\\.v8cache$`));
    const path = join(dir, "petstore", file!);
    const written = await stat(path);
    const second = run(["--help"]);
    expect(second).toEqual(first);
    expect((await stat(path)).mtimeMs).toBe(written.mtimeMs);
  });

  it("keeps lazily imported chunks working from a cached compile (Node 20 loses import() there)", async () => {
    expect(run(["--version"]).status).toBe(0);
    expect(await cacheFiles()).toHaveLength(1);
    const cached = run(["completion", "bash"]);
    expect(cached.stderr).toBe("");
    expect(cached.status).toBe(0);
    expect(cached.stdout).toContain("complete -F");
  });

  it("is replaced when V8 rejects it (garbage), and the run is unaffected", async () => {
    const clean = run(["pets", "--help"]);
    const [file] = await cacheFiles();
    const path = join(dir, "petstore", file!);
    await writeFile(path, Buffer.alloc(4096, 7));
    expect(run(["pets", "--help"])).toEqual(clean);
    const rewritten = await readFile(path);
    expect(rewritten.equals(Buffer.alloc(4096, 7))).toBe(false);
    expect(rewritten.length).toBeGreaterThan(4096);
  });

  it("is neither needed nor written when the directory cannot be made, or with NODE_DISABLE_COMPILE_CACHE", async () => {
    const blocked = join(dir, "a-file");
    await writeFile(blocked, "not a directory");
    const unwritable = run(["--help"], { XDG_CACHE_HOME: blocked });
    expect(unwritable.status).toBe(0);
    expect(unwritable.stderr).toBe("");
    expect(unwritable.stdout).toContain("Usage: petstore");
    expect(run(["--help"], { NODE_DISABLE_COMPILE_CACHE: "1" }).status).toBe(0);
    expect(await cacheFiles()).toEqual([]);
  });
});
