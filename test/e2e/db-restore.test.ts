// `petstore db restore <backup> --db <file>`: a backup from `db backup` put in place of a stopped
// store's db file, the current files moved aside; refused, changing nothing, for a running server,
// a damaged backup or a PostgreSQL URL.
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../cli/helpers/run-cli.js";
import { startServeProcess, tempDbPath, type ServeProcess } from "../helpers/serve-process.js";

async function createPet(server: ServeProcess, name: string): Promise<void> {
  const response = await fetch(`${server.baseUrl}/pets`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" },
    body: JSON.stringify({ name, categoryId: 1 }),
  });
  expect(response.status).toBe(201);
}

async function petNames(server: ServeProcess): Promise<string[]> {
  const response = await fetch(`${server.baseUrl}/pets?limit=100`, { headers: { authorization: `Bearer ${server.adminKey}` } });
  return ((await response.json()) as { name: string }[]).map((pet) => pet.name);
}

const restore = (backup: string, db: string) => runCli(["db", "restore", backup, "--db", db]);

/** Files in the db's folder with their bytes: what "nothing changed" is checked against. */
async function folderState(db: string): Promise<Record<string, string>> {
  const folder = dirname(db);
  const names = (await readdir(folder)).filter((name) => !name.endsWith(".lock")).sort();
  return Object.fromEntries(await Promise.all(names.map(async (name) => [name, await readFile(join(folder, name), "base64")] as const)));
}

function withoutCounters(state: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(state).filter(([name]) => !/\.limits\.(json|log)$/.test(name)));
}

/** A served db with `names` as its pets, backed up through the server; more pets added after the backup. */
async function storeWithBackup(names: string[], after: string[]): Promise<{ db: string; backup: string }> {
  const server = await startServeProcess();
  const backup = `${server.dbPath}.backup.json`;
  try {
    for (const name of names) await createPet(server, name);
    const saved = await runCli(["db", "backup", backup], { env: { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: server.adminKey } });
    expect(saved.code).toBe(0);
    for (const name of after) await createPet(server, name);
  } finally {
    await server.stop();
  }
  return { db: server.dbPath, backup };
}

describe("db restore", () => {
  it("puts the backup in place, the current db and journal moved aside; serve then shows exactly the backed-up pets", async () => {
    const { db, backup } = await storeWithBackup(["Rex", "Tom"], ["Later"]);
    // What the store holds after the backup: one more pet, in the db file or its journal.
    await writeFile(`${db}.journal`, "", { flag: "a" });
    const before = await folderState(db);
    const result = await restore(backup, db);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    const aside = /^Moved the current database aside to (\S+)\.\n/.exec(result.stderr)?.[1] ?? "";
    expect(aside).toMatch(new RegExp(`^${db.replace(/[.]/g, "\\.")}\\.before-restore-\\d{8}T\\d{6}Z$`));
    expect(result.stderr).toBe(
      `Moved the current database aside to ${aside}.\nMoved its journal aside to ${aside}.journal.\n` +
        `Restored 2 pets, 0 keys, 0 orders from ${backup} to ${db}.\n`,
    );
    // Nothing is lost: the old files are there, byte for byte, under their new names.
    expect(await readFile(aside, "base64")).toBe(before["petstore.json"]);
    expect(await readFile(`${aside}.journal`, "base64")).toBe(before["petstore.json.journal"]);
    expect(((await stat(db)).mode & 0o777).toString(8)).toBe("600");
    await expect(stat(`${db}.journal`)).rejects.toThrow(/ENOENT/);
    const server = await startServeProcess({ dbPath: db });
    try {
      expect(await petNames(server)).toEqual(["Rex", "Tom"]);
    } finally {
      await server.stop();
    }
  });

  it("over a damaged db, or none: serve starts again on the backup", async () => {
    const { db, backup } = await storeWithBackup(["Rex"], []);
    await writeFile(db, "");
    expect((await restore(backup, db)).code).toBe(0);
    const empty = await tempDbPath();
    const result = await restore(backup, empty);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`There was no database at ${empty}.\nRestored 1 pets, 0 keys, 0 orders from ${backup} to ${empty}.\n`);
    for (const file of [db, empty]) {
      const server = await startServeProcess({ dbPath: file });
      try {
        expect(await petNames(server)).toEqual(["Rex"]);
      } finally {
        await server.stop();
      }
    }
  });

  it("is refused while a server holds the db: exit 1, says so, nothing changes", async () => {
    const { db, backup } = await storeWithBackup(["Rex"], []);
    const server = await startServeProcess({ dbPath: db });
    try {
      await createPet(server, "Running");
      const before = await folderState(db);
      const result = await restore(backup, db);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(`Error: the database ${db} is in use by another petstore process (pid ${server.child.pid}): stop it first, then restore; nothing was changed\n`);
      // The running server saves its rate-limit counters on its own schedule: those files are its, not the restore's.
      expect(withoutCounters(await folderState(db))).toEqual(withoutCounters(before));
      expect(await petNames(server)).toEqual(["Rex", "Running"]);
    } finally {
      await server.stop();
    }
  });

  it.each([
    { name: "an empty backup", content: "", reason: "it is empty (0 bytes)" },
    { name: "a backup of a newer format", content: '{"version":4}', reason: "it was written by a newer petstore (format version 4)" },
    { name: "a backup that is not a petstore db", content: '{"pets":[]}', reason: 'it holds a JSON object without a "version"' },
  ])("$name is refused as serve would refuse it: exit 1, nothing changes", async ({ content, reason }) => {
    const { db } = await storeWithBackup(["Rex"], []);
    const backup = `${db}.damaged-backup.json`;
    await writeFile(backup, content);
    const before = await folderState(db);
    const result = await restore(backup, db);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Error: cannot read the database ${backup}: ${reason}`);
    expect(result.stderr).toContain("Nothing was changed. Restore another backup");
    expect(await folderState(db)).toEqual(before);
  });

  it("db export of a damaged db names db restore as the way forward, as serve does", async () => {
    const db = await tempDbPath();
    await writeFile(db, "");
    const result = await runCli(["db", "export", "--db", db]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`To go on, restore a backup: stop petstore, run \`petstore db restore <backup> --db ${db}\` (it moves the current files aside), and start it again.`);
  });

  it("a PostgreSQL URL is refused with exit 2, pointing to db import and pg_restore", async () => {
    const { backup } = await storeWithBackup([], []);
    const result = await restore(backup, "postgres://petstore@127.0.0.1:1/petstore");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/a PostgreSQL store is restored from a dump: `petstore db import <export> --db <url>` into an empty database, or pg_restore/);
  });

  it("usage errors exit 2 and change nothing: no backup argument, no --db, a backup that is missing or a folder", async () => {
    const db = await tempDbPath();
    const folder = dirname(db);
    const cases = [
      { args: ["db", "restore", "--db", db], message: /missing required argument 'backup-file'/ },
      { args: ["db", "restore", join(folder, "b.json")], message: /required option '--db <file>' not specified/ },
      { args: ["db", "restore", join(folder, "missing.json"), "--db", db], message: new RegExp(`cannot restore from ${join(folder, "missing.json")}: there is no such file`) },
      { args: ["db", "restore", folder, "--db", db], message: new RegExp(`cannot restore from ${folder}: it is not a file`) },
    ];
    for (const { args, message } of cases) {
      const result = await runCli(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    expect(await readdir(folder)).toEqual([]);
  });
});
