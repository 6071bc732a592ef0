// The lowdb engine's journal: one line per group commit, folded into the db file once it grows,
// replayed over it at open. Real files in temporary directories; a "crash" is a copy of the files
// taken while the store is still open, which is what a killed process leaves behind.
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { StoreCorruptError } from "../../src/store/errors.js";
import { journalLines, keyRecord, newPet, openCounted, readOnDisk, removeTempDirs, tempDbPath } from "./support.js";

afterAll(removeTempDirs);

const pet = (id: number) => ({ id, name: `pet ${id}`, categoryId: 1, status: "available" });
const dbText = (pets: unknown[], nextPetId: number, keys: unknown[] = []) =>
  JSON.stringify({ version: 3, nextPetId, pets, keys });
const line = (record: object) => `${JSON.stringify(record)}\n`;
const ids = (pets: { id: number }[]) => pets.map((p) => p.id);

/** What a kill -9 at this instant would leave: a copy of the db and its journal. */
async function crashCopy(file: string): Promise<string> {
  const copy = join(dirname(await tempDbPath()), "db.json");
  await copyFile(file, copy);
  await copyFile(`${file}.journal`, `${copy}.journal`);
  return copy;
}

describe("the journal", () => {
  it("takes one line per batch and leaves the db file alone until the journal reaches half its size", async () => {
    const file = await tempDbPath();
    await writeFile(file, dbText(Array.from({ length: 100 }, (_, i) => pet(i + 1)), 101));
    const half = (await stat(file)).size / 2;
    const { store, events } = await openCounted(file, { compaction: { ratio: 0.5, minBytes: 0 } });
    for (let i = 0; events.every((event) => event.file === "journal"); i++) await store.pets.create(newPet(i));
    // The compaction runs once the batch that crossed the threshold is answered; the next batch waits for it.
    const compaction = events.findIndex((event) => event.file === "snapshot");
    const journalBytes = events.slice(0, compaction).map((event) => event.bytes);
    const total = journalBytes.reduce((sum, bytes) => sum + bytes, 0);
    expect(total).toBeGreaterThanOrEqual(half);
    expect(total - journalBytes.at(-1)!).toBeLessThan(half);
    expect(events.slice(compaction + 1).map((event) => event.file)).toEqual(["journal"]);

    const compacted = journalBytes.length;
    expect(ids(JSON.parse(await readFile(file, "utf8")).pets)).toEqual(Array.from({ length: 100 + compacted }, (_, i) => i + 1));
    expect(journalLines(file).map((record) => record.pets?.map((p) => p.id))).toEqual([[100 + compacted + 1]]);
    await store.close();
  });

  it("loses no acknowledged create when the process dies before a compaction", async () => {
    const file = await tempDbPath();
    const { store } = await openCounted(file);
    const created = await Promise.all(Array.from({ length: 50 }, (_, i) => store.pets.create(newPet(i))));
    await store.keys.create(keyRecord("k1"));
    await store.keys.revoke("k1", new Date("2026-02-01T00:00:00.000Z"));
    expect(ids(JSON.parse(await readFile(file, "utf8")).pets)).toEqual([]);

    const copy = await crashCopy(file);
    const reopened = await openCounted(copy);
    expect((await reopened.store.pets.list({ limit: 100 })).pets).toEqual(created);
    expect((await reopened.store.keys.findByHash("hash-of-k1"))?.revokedAt).toBe("2026-02-01T00:00:00.000Z");
    expect((await reopened.store.pets.create(newPet(0))).id).toBe(51);
    expect(reopened.warnings).toEqual([]);
    await reopened.store.close();
    await store.close();
  });

  it("replays lines that are already in the db file as no-ops (a compaction cut short after its rename)", async () => {
    const file = await tempDbPath();
    const key = keyRecord("k1", { revokedAt: "2026-02-01T00:00:00.000Z", lastUsedAt: "2026-03-01T00:00:00.000Z" });
    await writeFile(file, dbText([pet(1), pet(2), pet(3)], 5, [key]));
    await writeFile(
      `${file}.journal`,
      line({ nextPetId: 3, pets: [pet(1), pet(2)], keys: [{ ...key, revokedAt: null, lastUsedAt: null }] }) +
        line({ nextPetId: 4, pets: [pet(3)], revoked: [["k1", "2026-02-02T00:00:00.000Z"]] }) +
        line({ nextPetId: 4, touched: [["k1", "2026-01-01T00:00:00.000Z"]] }),
    );
    const { store, warnings } = await openCounted(file);
    expect((await store.pets.list({ limit: 10 })).pets).toEqual([pet(1), pet(2), pet(3)]);
    expect(await store.keys.list()).toEqual([key]);
    expect((await store.pets.create(newPet(4))).id).toBe(5);
    expect(warnings).toEqual([]);
    await store.close();
    expect(readOnDisk(file)).toMatchObject({ nextPetId: 6, keys: [key] });
  });

  it("keeps every acknowledged update and delete across a crash; a deleted pet never comes back", async () => {
    const file = await tempDbPath();
    const { store } = await openCounted(file);
    await Promise.all(Array.from({ length: 4 }, (_, i) => store.pets.create(newPet(i))));
    await store.pets.update(2, { status: "sold", name: "Rex" });
    await store.pets.update(2, { categoryId: 9 });
    await Promise.all([store.pets.delete(3), store.pets.update(4, { status: "pending" })]);
    await store.pets.delete(4);
    expect(journalLines(file).slice(-3)).toEqual([
      // lastEventId: the id of each line's last event (GET /v1/events), so ids continue after a restart.
      { nextPetId: 5, updated: [{ id: 2, name: "Rex", categoryId: 9, status: "sold", revision: 3 }], lastEventId: 6 },
      { nextPetId: 5, updated: [{ id: 4, name: "pet 3", categoryId: 1, status: "pending", revision: 2 }], deleted: [3], lastEventId: 8 },
      { nextPetId: 5, deleted: [4], lastEventId: 9 },
    ]);

    const reopened = await openCounted(await crashCopy(file));
    expect((await reopened.store.pets.list({ limit: 10 })).pets).toEqual([
      { id: 1, name: "pet 0", categoryId: 1, status: "available" },
      { id: 2, name: "Rex", categoryId: 9, status: "sold" },
    ]);
    expect(await reopened.store.pets.get(2)).toMatchObject({ revision: 3 });
    expect(ids((await reopened.store.pets.list({ categoryId: 9, status: "sold", limit: 10 })).pets)).toEqual([2]);
    expect((await reopened.store.pets.create(newPet(0))).id).toBe(5);
    await reopened.store.close();
    await store.close();
    // The close folded everything into the db file: revisions kept, deleted pets absent.
    expect(JSON.parse(await readFile(file, "utf8"))).toMatchObject({
      nextPetId: 5,
      pets: [{ id: 1, name: "pet 0", categoryId: 1, status: "available" }, { id: 2, name: "Rex", categoryId: 9, status: "sold", revision: 3 }],
    });
  });

  it("replays updates and deletes already in the db file as no-ops, twice over the same result", async () => {
    const file = await tempDbPath();
    const rex = { id: 2, name: "Rex", categoryId: 1, status: "sold", revision: 3 };
    await writeFile(file, dbText([pet(1), rex], 4));
    const journal =
      line({ nextPetId: 4, pets: [pet(1), pet(2), pet(3)] }) +
      line({ nextPetId: 4, updated: [{ ...pet(2), status: "sold", revision: 2 }, { ...pet(3), revision: 2, name: "Tom" }] }) +
      line({ nextPetId: 4, updated: [rex], deleted: [3] });
    await writeFile(`${file}.journal`, journal);
    const expected = [{ pet: pet(1), revision: 1 }, { pet: { ...pet(2), name: "Rex", status: "sold" }, revision: 3 }];
    for (let open = 0; open < 2; open++) {
      const copy = await crashCopy(file);
      const { store, warnings } = await openCounted(copy);
      expect(await Promise.all([store.pets.get(1), store.pets.get(2), store.pets.get(3)])).toEqual([...expected, undefined]);
      expect(ids((await store.pets.list({ status: "sold", limit: 10 })).pets)).toEqual([2]);
      expect(warnings).toEqual([]);
      await store.close();
    }
  });

  it("drops a torn last line (no newline) with a warning, cuts it off, and appends after the good lines", async () => {
    const file = await tempDbPath();
    const good = line({ nextPetId: 2, pets: [pet(1)] });
    const torn = '{"nextPetId":3,"pets":[{"id":2,"na';
    await writeFile(file, dbText([], 1));
    await writeFile(`${file}.journal`, good + torn);
    const { store, warnings } = await openCounted(file);
    expect(warnings).toEqual([
      `dropped the incomplete last line of ${file}.journal (${torn.length} bytes): its write never finished, so it was never acknowledged`,
    ]);
    expect(await readFile(`${file}.journal`, "utf8")).toBe(good);
    expect(ids((await store.pets.list({ limit: 10 })).pets)).toEqual([1]);
    expect((await store.pets.create(newPet(2))).id).toBe(2);
    expect(journalLines(file).map((record) => record.pets?.map((p) => p.id))).toEqual([[1], [2]]);
    const copy = await crashCopy(file);
    await store.close();
    const reopened = await openCounted(copy);
    expect(ids((await reopened.store.pets.list({ limit: 10 })).pets)).toEqual([1, 2]);
    await reopened.store.close();
  });

  it("drops a last line that ends with its newline but is not JSON (zeros from a torn write)", async () => {
    const file = await tempDbPath();
    await writeFile(file, dbText([], 1));
    await writeFile(`${file}.journal`, `${line({ nextPetId: 2, pets: [pet(1)] })}{"nextPetId":3,\0\0\0\0\n`);
    const { store, warnings } = await openCounted(file);
    expect(warnings).toEqual([expect.stringContaining("(20 bytes)")]);
    expect(ids((await store.pets.list({ limit: 10 })).pets)).toEqual([1]);
    await store.close();
  });
});

describe("the journal, corrupt: StoreCorruptError and every file left as it was", () => {
  const cases: { name: string; db?: string; journal: string; reason: RegExp }[] = [
    { name: "a line before the last that is not JSON", journal: `{"nextPetId":2,"pe\n${line({ nextPetId: 1 })}`, reason: /^line 1: not JSON, and not the last line, so it was damaged after it was written$/ },
    { name: "an invalid record", journal: line({ nextPetId: 2, pets: [{ ...pet(1), status: "lost" }] }), reason: /^line 1: pets\.0\.status: / },
    { name: "a pet that contradicts the db file", db: dbText([pet(1)], 2), journal: line({ nextPetId: 2, pets: [{ ...pet(1), name: "Max" }] }), reason: /^line 1: pet 1 differs/ },
    { name: "a pet missing below the newest one", db: dbText([pet(1), pet(3)], 4), journal: line({ nextPetId: 4, pets: [pet(2)] }), reason: /^line 1: pet 2 is older than the newest pet but missing$/ },
    { name: "an update that contradicts the db file at the same revision", db: dbText([{ ...pet(1), revision: 2 }], 2), journal: line({ nextPetId: 2, updated: [{ ...pet(1), name: "Max", revision: 2 }] }), reason: /^line 1: pet 1 differs/ },
    { name: "a pet put back below the newest one and never deleted", db: dbText([pet(1), pet(3)], 4), journal: line({ nextPetId: 4, updated: [{ ...pet(2), revision: 2 }] }) + line({ nextPetId: 4, deleted: [1] }), reason: /^line 1: pet 2 is older than the newest pet but missing$/ },
    { name: "a revocation of an unknown key", journal: line({ nextPetId: 1, revoked: [["k9", "2026-02-01T00:00:00.000Z"]] }), reason: /^line 1: key "k9" is unknown$/ },
    { name: "a key with another key's secret", db: dbText([], 1, [keyRecord("k1")]), journal: line({ nextPetId: 1, keys: [keyRecord("k2", { hash: "hash-of-k1" })] }), reason: /^line 1: key k2 has the secret of another key$/ },
  ];

  it.each(cases)("$name", async ({ db = dbText([], 1), journal, reason }) => {
    const file = await tempDbPath();
    await writeFile(file, db);
    await writeFile(`${file}.journal`, journal);
    const error = await openCounted(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreCorruptError);
    expect(error).toMatchObject({ file: `${file}.journal` });
    expect((error as StoreCorruptError).reason).toMatch(reason);
    expect(await readFile(file, "utf8")).toBe(db);
    expect(await readFile(`${file}.journal`, "utf8")).toBe(journal);
    expect((await readdir(dirname(file))).sort()).toEqual(["db.json", "db.json.journal"]);
  });

  it("refuses a journal whose db file is gone, rather than start from it alone", async () => {
    const file = await tempDbPath();
    await writeFile(`${file}.journal`, line({ nextPetId: 2, pets: [pet(1)] }));
    await expect(openCounted(file)).rejects.toMatchObject({
      name: "StoreCorruptError",
      file: `${file}.journal`,
      reason: `it is there but the database ${file} is not`,
    });
    expect(await readdir(dirname(file))).toEqual(["db.json.journal"]);
  });
});

describe("compaction that cannot write the db file", () => {
  /** Replaces the db's directory by a regular file (ENOTDIR for new files, as root too); returns the undo. */
  async function breakDirectory(file: string): Promise<() => Promise<void>> {
    const aside = `${dirname(file)}-aside`;
    await rename(dirname(file), aside);
    await writeFile(dirname(file), "");
    return async () => {
      await rm(dirname(file));
      await rename(aside, dirname(file));
    };
  }

  it("warns, keeps acknowledging creates through the journal, retries later, and loses nothing", async () => {
    const file = join(dirname(await tempDbPath()), "data", "db.json");
    await mkdir(dirname(file));
    // Compacts after every batch; each create waits for the compaction the previous one started.
    const { store, warnings, snapshots } = await openCounted(file, { compaction: { ratio: 0, minBytes: 1 } });
    expect(snapshots()).toBe(1);

    const repair = await breakDirectory(file);
    // The journal is already open, so the appends succeed; only the db file's rewrite fails.
    expect((await store.pets.create(newPet(1))).id).toBe(1);
    expect((await store.pets.create(newPet(2))).id).toBe(2);
    expect((await store.pets.create(newPet(3))).id).toBe(3);
    expect(snapshots()).toBe(1);
    expect(warnings).toEqual([expect.stringMatching(/^cannot compact .*db\.json\.journal into .*db\.json \(.*ENOTDIR.*\); will retry later$/)]);
    await repair();

    expect((await store.pets.create(newPet(4))).id).toBe(4);
    await store.pets.create(newPet(5)); // waits for the retried compaction
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatch(/^compacted .*db\.json\.journal into .*db\.json again$/);
    expect(ids(JSON.parse(await readFile(file, "utf8")).pets)).toEqual([1, 2, 3, 4]);
    await store.close();
    expect(ids(readOnDisk(file).pets)).toEqual([1, 2, 3, 4, 5]);
  });

  it("at close: warns, keeps the journal, and the next open replays it", async () => {
    const file = join(dirname(await tempDbPath()), "data", "db.json");
    await mkdir(dirname(file));
    const { store, warnings } = await openCounted(file);
    await store.pets.create(newPet(1));
    store.keys.touch("nope", new Date());
    const repair = await breakDirectory(file);
    await store.close();
    await repair();
    expect(warnings).toEqual([
      expect.stringMatching(/^cannot fold .*db\.json\.journal into .*db\.json at close \(.*ENOTDIR.*\); the next start replays it/),
      expect.stringMatching(/^cannot remove the lock .*db\.json\.lock: .*ENOTDIR/),
    ]);
    expect((await readdir(dirname(file))).sort()).toEqual(["db.json", "db.json.journal", "db.json.lock"]);

    // The lock names this (live) process; a next process would take it over once we exit.
    await rm(`${file}.lock`);
    const reopened = await openCounted(file);
    expect(ids((await reopened.store.pets.list({ limit: 10 })).pets)).toEqual([1]);
    await reopened.store.close();
    expect(await readdir(dirname(file))).toEqual(["db.json"]);
  });
});

