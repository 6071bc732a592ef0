// Prints figures for the report; it asserts behaviour, never timings (these machines are noisy).
import { writeFile } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { afterAll, expect, it } from "vitest";
import { PET_STATUSES } from "../../src/contract/values.js";
import { newPet, openCounted, removeTempDirs, tempDbPath } from "./support.js";

afterAll(removeTempDirs);

const PETS = 100_000;

async function writeBigDb(file: string): Promise<void> {
  const pets = Array.from({ length: PETS }, (_, i) => ({
    id: i + 1,
    name: `pet number ${i + 1}`,
    categoryId: 1 + (i % 7),
    status: PET_STATUSES[i % 3],
  }));
  await writeFile(file, JSON.stringify({ version: 1, nextPetId: PETS + 1, pets, keys: [] }));
}

function microsPerCall(times: number, call: () => unknown): number {
  const started = performance.now();
  for (let i = 0; i < times; i++) call();
  return ((performance.now() - started) * 1000) / times;
}

it(`opens, lists and batches creates at ${PETS.toLocaleString("en")} pets`, async () => {
  const file = await tempDbPath();
  await writeBigDb(file);

  let started = performance.now();
  const { store, writes } = await openCounted(file);
  const openMs = performance.now() - started;

  const pets = store.pets;
  const middle = PETS / 2;
  await pets.list({ limit: 20, afterId: middle }); // warm up
  const listAll = microsPerCall(10_000, () => pets.list({ limit: 20, afterId: middle }));
  const listSold = microsPerCall(10_000, () => pets.list({ status: "sold", limit: 100, afterId: middle }));
  const get = microsPerCall(10_000, () => pets.get(middle));
  const page = await pets.list({ status: "sold", limit: 20, afterId: middle });
  expect(page.pets.map((pet) => pet.id)).toEqual(Array.from({ length: 20 }, (_, i) => middle + 1 + 3 * i));

  started = performance.now();
  const created = await Promise.all(Array.from({ length: 200 }, (_, i) => pets.create(newPet(i))));
  const createMs = performance.now() - started;
  expect(created.at(-1)?.id).toBe(PETS + 200);
  await store.close();

  console.log(
    [
      `open ${PETS} pets: ${openMs.toFixed(0)} ms`,
      `list 20 (no filter): ${listAll.toFixed(2)} µs; list 100 by status: ${listSold.toFixed(2)} µs`,
      `get: ${get.toFixed(2)} µs`,
      `200 concurrent creates: ${writes()} file write(s), all resolved in ${createMs.toFixed(0)} ms`,
    ].join("\n"),
  );
});
