import { spawn } from "node:child_process";
import { once } from "node:events";
import { access, readFile, writeFile } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { StoreLockedError } from "../../src/store/errors.js";
import { acquireLock } from "../../src/store/lock.js";
import { openCounted, removeTempDirs, tempDbPath } from "./support.js";

afterAll(removeTempDirs);

const exists = (path: string) => access(path).then(
  () => true,
  () => false,
);

/** The pid of a node process that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await once(child, "exit");
  return child.pid!;
}

describe("the db lock", () => {
  it("holds our pid while open and is removed at close", async () => {
    const file = await tempDbPath();
    const { store } = await openCounted(file);
    expect(await readFile(`${file}.lock`, "utf8")).toBe(`${process.pid}\n`);
    await store.close();
    expect(await exists(`${file}.lock`)).toBe(false);
  });

  it("refuses a second open in the same process, naming our pid", async () => {
    const file = await tempDbPath();
    const { store } = await openCounted(file);
    const error = await openCounted(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreLockedError);
    expect(error).toMatchObject({ file, pid: process.pid });
    expect(await readFile(`${file}.lock`, "utf8")).toBe(`${process.pid}\n`);
    await store.close();
    await (await openCounted(file)).store.close();
  });

  it("refuses a lock held by another live process, naming its pid", async () => {
    const file = await tempDbPath();
    const holder = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    try {
      await writeFile(`${file}.lock`, `${holder.pid}\n`);
      await expect(openCounted(file)).rejects.toMatchObject({ name: "StoreLockedError", pid: holder.pid });
      expect(await readFile(`${file}.lock`, "utf8")).toBe(`${holder.pid}\n`);
      expect(await exists(file)).toBe(false);
    } finally {
      holder.kill();
    }
  });

  it("takes over a lock whose process is gone, with a warning naming it", async () => {
    const file = await tempDbPath();
    const pid = await deadPid();
    await writeFile(`${file}.lock`, `${pid}\n`);
    const { store, warnings } = await openCounted(file);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`pid ${pid}`);
    expect(await readFile(`${file}.lock`, "utf8")).toBe(`${process.pid}\n`);
    await store.close();
  });

  it("takes over a lock file that does not hold a pid, with a warning", async () => {
    const file = await tempDbPath();
    await writeFile(`${file}.lock`, "garbage");
    const { store, warnings } = await openCounted(file);
    expect(warnings).toEqual([expect.stringContaining('"garbage" is not a pid')]);
    await store.close();
  });

  it("releases the lock only while it is still ours, once", async () => {
    const file = await tempDbPath();
    const lock = await acquireLock(file, { warn: () => {} });
    await writeFile(`${file}.lock`, "12345\n");
    await lock.release();
    expect(await readFile(`${file}.lock`, "utf8")).toBe("12345\n");
    await lock.release();
  });

  it("is released when the file turns out to be corrupt", async () => {
    const file = await tempDbPath();
    await writeFile(file, "not json");
    await expect(openCounted(file)).rejects.toThrow(/cannot read the database/);
    expect(await exists(`${file}.lock`)).toBe(false);
  });
});
