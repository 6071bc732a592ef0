// A db of 100,000 pets, as docs/performance.md's figures assume: it opens without rewriting anything, a
// page is found by id and status without a scan, and a burst of concurrent creates costs one
// journal line, not a rewrite of the document. (Timings live in `npm run bench`: these machines
// are too noisy for a test to assert them.)
import { writeFile } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { PET_STATUSES } from "../../src/contract/values.js";
import { journalLines, newPet, openCounted, removeTempDirs, tempDbPath } from "./support.js";

afterAll(removeTempDirs);

const PETS = 100_000;
const BURST = 200;

async function writeBigDb(file: string): Promise<void> {
  const pets = Array.from({ length: PETS }, (_, i) => ({
    id: i + 1,
    name: `pet number ${i + 1}`,
    categoryId: 1 + (i % 7),
    status: PET_STATUSES[i % 3],
  }));
  await writeFile(file, JSON.stringify({ version: 3, nextPetId: PETS + 1, pets, keys: [] }));
}

describe(`a db of ${PETS.toLocaleString("en")} pets`, () => {
  it("opens without a write, pages by id and status, and takes a burst of creates as one journal line", async () => {
    const file = await tempDbPath();
    await writeBigDb(file);
    const { store, events } = await openCounted(file);
    expect(events).toEqual([]);

    const middle = PETS / 2;
    const page = await store.pets.list({ status: "sold", limit: 20, afterId: middle });
    expect(page.pets.map((pet) => pet.id)).toEqual(Array.from({ length: 20 }, (_, i) => middle + 1 + 3 * i));
    expect(page.hasMore).toBe(true);
    expect(await store.pets.get(middle)).toMatchObject({ pet: { id: middle, name: `pet number ${middle}` }, revision: 1 });

    const created = await Promise.all(Array.from({ length: BURST }, (_, i) => store.pets.create(newPet(i))));
    expect(created.map((pet) => pet.id)).toEqual(Array.from({ length: BURST }, (_, i) => PETS + 1 + i));
    // Creates arriving in the same turn share one append and one fdatasync; the document is not rewritten.
    expect(events.map((event) => event.file)).toEqual(["journal"]);
    expect(journalLines(file).map((line) => line.pets?.length)).toEqual([BURST]);
    // Closing folds the journal into the document: one lowdb write.
    await store.close();
    expect(events.map((event) => event.file)).toEqual(["journal", "snapshot"]);
  });
});
