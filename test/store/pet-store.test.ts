import { setImmediate as nextTurn } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { PET_STATUSES } from "../../src/contract/values.js";
import { StorageUnavailableError } from "../../src/store/errors.js";
import { ENGINES, newPet, removeTempDirs } from "./support.js";

afterAll(removeTempDirs);

describe.each(ENGINES)("PetStore ($name)", ({ open }) => {
  it("gives 200 concurrent creates the distinct ids 1..200", async () => {
    const store = await open();
    const pets = await Promise.all(Array.from({ length: 200 }, (_, i) => store.pets.create(newPet(i))));
    expect(pets.map((pet) => pet.id)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(pets[7]).toEqual({ id: 8, name: "pet 7", categoryId: 2, status: "available" });
    expect(await store.pets.get(200)).toEqual({ pet: pets[199], revision: 1 });
    await store.close();
  });

  it("shows a pet to get and list only once create has resolved", async () => {
    const store = await open();
    let resolved = false;
    const created = store.pets.create(newPet(1)).then((pet) => ((resolved = true), pet));
    let turns = 0;
    while (!resolved) {
      // Both reads start while the create is pending (an engine over the network answers later).
      const [pet, page] = await Promise.all([store.pets.get(1), store.pets.list({ limit: 10 })]);
      expect(pet).toBeUndefined();
      expect(page.pets).toEqual([]);
      await nextTurn();
      turns++;
    }
    expect(turns).toBeGreaterThan(0);
    expect(await store.pets.get(1)).toEqual({ pet: await created, revision: 1 });
    await store.close();
  });

  it("pages through all pets and through each status, hasMore exact at the boundary", async () => {
    const store = await open();
    const statuses = Array.from({ length: 30 }, (_, i) => PET_STATUSES[i % 3]!);
    await Promise.all(statuses.map((status, i) => store.pets.create(newPet(i, status))));

    const all = await pageIds(store.pets.list.bind(store.pets), { limit: 10 });
    expect(all.pages).toEqual([10, 10, 10]);
    expect(all.ids).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(all.lastHasMore).toBe(false);

    const sold = await pageIds(store.pets.list.bind(store.pets), { status: "sold", limit: 4 });
    expect(sold.ids).toEqual([3, 6, 9, 12, 15, 18, 21, 24, 27, 30]);
    expect(sold.pages).toEqual([4, 4, 2]);

    const exact = await store.pets.list({ status: "pending", limit: 10 });
    expect(exact.pets).toHaveLength(10);
    expect(exact.hasMore).toBe(false);
    expect(await store.pets.list({ status: "pending", limit: 9 })).toMatchObject({ hasMore: true });
    await store.close();
  });

  it("starts a page after an id that is absent from the filtered list", async () => {
    const store = await open();
    for (const status of ["available", "sold", "available", "sold"] as const) {
      await store.pets.create(newPet(0, status));
    }
    expect((await store.pets.list({ status: "sold", afterId: 1, limit: 5 })).pets.map((pet) => pet.id)).toEqual([2, 4]);
    expect(await store.pets.list({ status: "sold", afterId: 4, limit: 5 })).toEqual({ pets: [], revisions: [], hasMore: false });
    expect(await store.pets.list({ afterId: 99, limit: 5 })).toEqual({ pets: [], revisions: [], hasMore: false });
    expect(await store.pets.get(99)).toBeUndefined();
    await store.close();
  });

  it("refuses a pet it could not load again, and creates after close", async () => {
    const store = await open();
    await expect(store.pets.create({ name: "", categoryId: 1, status: "sold" })).rejects.toThrow(/invalid pet: name/);
    await store.close();
    await expect(store.pets.create(newPet(1))).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(store.close()).resolves.toBeUndefined();
  });

  it("keeps its pets safe from a caller that mutates them", async () => {
    const store = await open();
    const pet = await store.pets.create(newPet(1));
    expect(() => Object.assign(pet, { name: "changed" })).toThrow(TypeError);
    expect((await store.pets.get(pet.id))?.pet.name).toBe("pet 1");
    await store.close();
  });
});

type List = (query: { status?: "available" | "pending" | "sold"; afterId?: number; limit: number }) => Promise<{
  pets: { id: number }[];
  hasMore: boolean;
}>;

async function pageIds(list: List, query: Parameters<List>[0]) {
  const ids: number[] = [];
  const pages: number[] = [];
  let afterId: number | undefined;
  for (;;) {
    const page = await list({ ...query, afterId });
    ids.push(...page.pets.map((pet) => pet.id));
    pages.push(page.pets.length);
    afterId = page.pets.at(-1)?.id;
    if (!page.hasMore) return { ids, pages, lastHasMore: page.hasMore };
  }
}
