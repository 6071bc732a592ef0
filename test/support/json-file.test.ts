// support/json-file.ts over real files in a fresh temporary directory.
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JsonFileError, readJsonFile, writeFileAtomic } from "../../src/support/json-file.js";

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "petstore-json-file-"));
  file = join(dir, "data.json");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const asObject = (json: unknown): { n: number } => {
  if (typeof json !== "object" || json === null || typeof (json as { n?: unknown }).n !== "number") {
    throw new Error("n must be a number");
  }
  return json as { n: number };
};

describe("readJsonFile", () => {
  it("a missing file is undefined, not an error", async () => {
    await expect(readJsonFile(file, asObject)).resolves.toBeUndefined();
  });

  it("returns what validate returns", async () => {
    await writeFile(file, '{"n":3}');
    await expect(readJsonFile(file, asObject)).resolves.toEqual({ n: 3 });
  });

  it.each([
    { name: "bad JSON", content: '{"n":', reason: /^not valid JSON \(/ },
    { name: "an empty file", content: "", reason: /^not valid JSON \(/ },
    { name: "a shape validate refuses", content: '{"n":"3"}', reason: /^n must be a number$/ },
  ])("$name: JsonFileError naming the file, with the reason", async ({ content, reason }) => {
    await writeFile(file, content);
    const error = await readJsonFile(file, asObject).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JsonFileError);
    expect((error as JsonFileError).file).toBe(file);
    expect((error as JsonFileError).reason).toMatch(reason);
    expect((error as JsonFileError).message).toBe(`${file}: ${(error as JsonFileError).reason}`);
  });

  it("a file that cannot be read (a directory) is a JsonFileError with the code", async () => {
    const error = await readJsonFile(dir, asObject).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JsonFileError);
    expect((error as JsonFileError).reason).toBe("cannot be read (EISDIR)");
  });
});

describe("writeFileAtomic", () => {
  it.each([{ durable: false }, { durable: true }])("creates the file with mode 0600 (durable: $durable)", async ({ durable }) => {
    await writeFileAtomic(file, '{"n":1}', { durable });
    expect(await readFile(file, "utf8")).toBe('{"n":1}');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("replaces the content and leaves no temporary file beside it", async () => {
    await writeFile(file, '{"n":0}', { mode: 0o644 });
    await writeFileAtomic(file, Buffer.from('{"n":2}'), { durable: true });
    expect(await readJsonFile(file, asObject)).toEqual({ n: 2 });
    expect(await readdir(dir)).toEqual(["data.json"]);
    // A new file each time, so the mode asked for applies even over an existing file.
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("honours another mode when asked", async () => {
    await writeFileAtomic(file, "{}", { mode: 0o640 });
    expect((await stat(file)).mode & 0o777).toBe(0o640);
  });

  it("a failed rename removes its temporary file and reports the rename's error", async () => {
    await writeFile(file, '{"n":0}');
    // A non-empty directory cannot be replaced by a file: the temporary file is written, the rename fails.
    const target = join(dir, "sub");
    await mkdir(join(target, "inner"), { recursive: true });
    await expect(writeFileAtomic(target, "{}", { durable: true })).rejects.toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect((await readdir(dir)).sort()).toEqual(["data.json", "sub"]);
    expect(await readFile(file, "utf8")).toBe('{"n":0}');
  });
});
