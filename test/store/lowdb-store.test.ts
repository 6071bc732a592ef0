import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { StoreCorruptError } from "../../src/store/errors.js";
import { newPet, openCounted, readOnDisk, removeTempDirs, tempDbPath } from "./support.js";

afterAll(removeTempDirs);

const idsOnDisk = (file: string): number[] => readOnDisk(file).pets.map((pet) => pet.id);

describe("openLowdbStore: durability and group commit", () => {
  it("creates an empty db durably at open, compact, with mode 0600", async () => {
    const file = await tempDbPath();
    const { store, writes } = await openCounted(file);
    expect(writes()).toBe(1);
    expect(await readFile(file, "utf8")).toBe('{"version":3,"nextPetId":1,"pets":[],"keys":[],"nextOrderId":1,"orders":[]}');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await store.pets.create(newPet(1));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await store.close();
    expect((await readdir(dirname(file))).sort()).toEqual(["db.json"]);
  });

  it("writes 200 concurrent creates once, and all of them survive a reopen", async () => {
    const file = await tempDbPath();
    const first = await openCounted(file);
    const before = first.writes();
    await Promise.all(Array.from({ length: 200 }, (_, i) => first.store.pets.create(newPet(i))));
    expect(first.writes() - before).toBe(1);
    await first.store.close();

    const second = await openCounted(file);
    const page = await second.store.pets.list({ limit: 100, afterId: 100 });
    expect(page.pets.map((pet) => pet.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 101));
    expect(page.hasMore).toBe(false);
    expect((await second.store.pets.create(newPet(200))).id).toBe(201);
    await second.store.close();
  });

  it("queues creates made during a write for the next batch, each resolved once its own batch is on disk", async () => {
    const file = await tempDbPath();
    const { store, writes } = await openCounted(file);
    const onDiskWhenResolved: boolean[] = [];
    const create = (i: number) =>
      store.pets.create(newPet(i)).then((pet) => onDiskWhenResolved.push(idsOnDisk(file).includes(pet.id)));
    const first = create(0);
    await nextTurn(); // the first batch is now being written
    const rest = Array.from({ length: 199 }, (_, i) => create(i + 1));
    await first;
    expect(onDiskWhenResolved).toEqual([true]);
    await Promise.all(rest);
    expect(onDiskWhenResolved).toEqual(Array(200).fill(true));
    expect(writes()).toBe(1 + 2);
    await store.close();
  });

  it("continues ids after a reopen and never reuses one", async () => {
    const file = await tempDbPath();
    for (const expected of [1, 2, 3]) {
      const { store } = await openCounted(file);
      expect((await store.pets.create(newPet(expected))).id).toBe(expected);
      await store.close();
    }
    expect(JSON.parse(await readFile(file, "utf8"))).toMatchObject({ nextPetId: 4 });
    expect(await readdir(dirname(file))).toEqual(["db.json"]);
  });

  it("removes the temporary files a killed write of the db left, and only those", async () => {
    const file = await tempDbPath();
    const dir = dirname(file);
    await (await openCounted(file)).store.close();
    const leftovers = ["db.json.4242.7.tmp", "db.json.tmp"];
    const others = ["db.json.limits.json.4242.3.tmp", "db.json.backup", "other.json.1.1.tmp"];
    for (const name of [...leftovers, ...others]) await writeFile(join(dir, name), "{}");
    const { store } = await openCounted(file);
    expect((await readdir(dir)).sort()).toEqual(["db.json", "db.json.journal", "db.json.lock", ...others].sort());
    await store.close();
  });

  it("waits in close() for the batches in flight", async () => {
    const file = await tempDbPath();
    const { store } = await openCounted(file);
    const created = Array.from({ length: 5 }, (_, i) => store.pets.create(newPet(i)));
    await store.close();
    await expect(Promise.all(created)).resolves.toHaveLength(5);
    expect(idsOnDisk(file)).toEqual([1, 2, 3, 4, 5]);
    await expect(store.close()).resolves.toBeUndefined();
  });
});

describe("openLowdbStore: an unreadable db file", () => {
  const pet = { id: 1, name: "Rex", categoryId: 1, status: "available" };
  const cases: { name: string; content: string; reason: RegExp }[] = [
    { name: "bad JSON", content: '{"version":1,', reason: /JSON/ },
    { name: "an empty file", content: "", reason: /^it is empty \(0 bytes\)/ },
    { name: "JSON that is not an object", content: "[]", reason: /^it holds JSON, but an array where a petstore database is an object$/ },
    { name: "pets not an array", content: '{"version":1,"nextPetId":1,"pets":{},"keys":[]}', reason: /^pets: / },
    { name: "an invalid pet", content: db([{ ...pet, status: "lost" }]), reason: /^pets\.0\.status: / },
    { name: "duplicate pet ids", content: db([pet, { ...pet, name: "Max" }]), reason: /duplicate id 1/ },
    { name: "a newer version", content: db([]).replace('"version":3', '"version":4'), reason: /^it was written by a newer petstore \(format version 4\); this petstore reads format versions 1 to 3/ },
    { name: "a version petstore never wrote", content: db([]).replace('"version":3', '"version":"3"'), reason: /^its "version" is "3", not a format version/ },
    { name: "no version", content: db([]).replace('"version":3,', ""), reason: /^it holds a JSON object without a "version"/ },
    { name: "no keys", content: '{"version":1,"nextPetId":1,"pets":[]}', reason: /^keys: / },
  ];

  it.each(cases)("$name: throws StoreCorruptError and leaves the file byte for byte", async ({ content, reason }) => {
    const file = await tempDbPath();
    await writeFile(file, content, { mode: 0o644 });
    const error = await openCounted(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreCorruptError);
    expect((error as StoreCorruptError).file).toBe(file);
    expect((error as StoreCorruptError).message).toContain(file);
    expect((error as StoreCorruptError).reason).toMatch(reason);
    expect(await readFile(file, "utf8")).toBe(content);
    expect((await stat(file)).mode & 0o777).toBe(0o644);
    expect(await readdir(dirname(file))).toEqual(["db.json"]);
  });

  it("loads a hand-sorted file and keeps nextPetId above every id", async () => {
    const file = await tempDbPath();
    await writeFile(file, db([{ ...pet, id: 9 }, pet], 2));
    const { store } = await openCounted(file);
    expect((await store.pets.list({ limit: 5 })).pets.map((p) => p.id)).toEqual([1, 9]);
    expect((await store.pets.create(newPet(1))).id).toBe(10);
    await store.close();
  });
});

function db(pets: unknown[], nextPetId = 10): string {
  return JSON.stringify({ version: 3, nextPetId, pets, keys: [] });
}

describe("openLowdbStore: a db that cannot be created", () => {
  it("throws StorageUnavailableError when the directory is missing", async () => {
    const file = join(dirname(await tempDbPath()), "missing", "db.json");
    await expect(openCounted(file)).rejects.toMatchObject({ name: "StorageUnavailableError", file });
  });
});
