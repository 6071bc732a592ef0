// `petstore serve` over a db file or journal that cannot be read: exit 1, and stderr names the
// file, says what is wrong in words and how to go on, and never carries the file's raw bytes.
import { isUtf8 } from "node:buffer";
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, TEST_ADMIN_KEY } from "../helpers/serve-process.js";

const directories: string[] = [];
afterAll(async () => {
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
});

/** `serve` over `file`, its stderr as raw bytes, to check that no byte of the file reaches it. */
function serveRaw(file: string): Promise<{ code: number | null; stderr: Buffer; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, "serve", "--port", "0", "--db", file], {
      env: { ...process.env, PETSTORE_ADMIN_KEY: TEST_ADMIN_KEY, PETSTORE_LOG_FORMAT: "text" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const chunks: Buffer[] = [];
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (/listening on/.test(stdout)) child.kill("SIGKILL");
    });
    child.stderr.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("exit", (code) => resolve({ code, stderr: Buffer.concat(chunks), stdout }));
  });
}

async function dbWith(content: Buffer | string, journal?: Buffer | string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "petstore-damaged-"));
  directories.push(dir);
  const file = join(dir, "petstore.json");
  await writeFile(file, content);
  if (journal !== undefined) await writeFile(`${file}.journal`, journal);
  return file;
}

/** Text a terminal shows as it is: UTF-8, no control character but the line breaks, no replacement character. */
function expectPrintable(stderr: Buffer): string {
  expect(isUtf8(stderr)).toBe(true);
  const text = stderr.toString("utf8");
  // eslint-disable-next-line no-control-regex
  expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\ufffd]/);
  return text;
}

const restoreAdvice = (file: string) =>
  `restore a backup: stop petstore, run \`petstore db restore <backup> --db ${file}\` (it moves the current files aside), and start it again`;
const STORE = '{"version":3,"nextPetId":1,"pets":[],"keys":[]}';

describe("serve over a damaged db file", () => {
  it.each([
    {
      name: "a file of a newer format version",
      content: '{"version":4}',
      reason: "it was written by a newer petstore (format version 4); this petstore reads format versions 1 to 3",
      next: (file: string) => `The file is left as it is. To go on, run a petstore release that reads format version 4, or ${restoreAdvice(file)}.`,
    },
    {
      name: "an empty file",
      content: "",
      reason: "it is empty (0 bytes), and a petstore database never is: it was cut short or made by another program",
      next: (file: string) =>
        `The file is left as it is. To go on, ${restoreAdvice(file)}. With no backup, move it aside (mv ${file} ${file}.damaged) to start with an empty database.`,
    },
    {
      name: "a file cut short",
      content: '{"version":2,"nextPetId":1,"pets":[{"id":1,',
      reason: "its JSON stops in the middle (43 bytes): the file was cut short",
      next: (file: string) =>
        `The file is left as it is. To go on, ${restoreAdvice(file)}. With no backup, move it aside (mv ${file} ${file}.damaged) to start with an empty database.`,
    },
  ])("$name: exit 1, the file, the reason in words and what to do", async ({ content, reason, next }) => {
    const file = await dbWith(content);
    const result = await serveRaw(file);
    expect(result.code).toBe(1);
    expect(expectPrintable(result.stderr)).toBe(`petstore serve: cannot read the database ${file}: ${reason}\n${next(file)}\n`);
    expect(await readFile(file, "utf8")).toBe(content);
  });

  it("random bytes: says binary data, and none of the bytes reaches the terminal", async () => {
    const bytes = Buffer.from([0x1b, 0x5b, 0x33, 0x31, 0x6d, 0xff, 0xfe, 0x00, 0x9b, 0x32, 0x4a, 0x07, 0xc3, 0x28, 0x0d, 0x80]);
    const file = await dbWith(bytes);
    const result = await serveRaw(file);
    expect(result.code).toBe(1);
    const text = expectPrintable(result.stderr);
    expect(text).toMatch(new RegExp(`^petstore serve: cannot read the database ${file}: it holds binary data, not JSON text \\(16 bytes\\)\n`));
    expect(text).toContain(restoreAdvice(file));
    expect(Buffer.compare(await readFile(file), bytes)).toBe(0);
  });

  it("text with a terminal escape sequence in it: not valid JSON, where, and the sequence escaped", async () => {
    const content = '{"version":2,"nextPetId":1,\u001b]0;owned\u0007\u001b[2J}';
    const file = await dbWith(content);
    const result = await serveRaw(file);
    expect(result.code).toBe(1);
    const text = expectPrintable(result.stderr);
    expect(text.split("\n")[0]).toBe(
      `petstore serve: cannot read the database ${file}: it is not valid JSON (Expected double-quoted property name in JSON at position 27, line 1 column 28)`,
    );
  });

  it("a journal line damaged after it was written: names the journal, says so, and how to go on", async () => {
    const file = await dbWith(STORE, `{"nextPetId":1}\ngarbage\u001b[31m\u00ff\n{"nextPetId":1}\n`);
    const before = await readdir(join(file, ".."));
    const result = await serveRaw(file);
    expect(result.code).toBe(1);
    expect(expectPrintable(result.stderr)).toBe(
      `petstore serve: cannot read the journal ${file}.journal: line 2: not JSON, and not the last line, so it was damaged after it was written\n` +
        `Both files are left as they are. The journal holds the changes made since ${file} was last rewritten. ` +
        `To go on, ${restoreAdvice(file)}; or keep the database as it was last rewritten and lose those changes: ` +
        `mv ${file}.journal ${file}.journal.damaged\n`,
    );
    expect(await readdir(join(file, ".."))).toEqual(before);
  });
});
