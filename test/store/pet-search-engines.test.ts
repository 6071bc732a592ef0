// q and sort=name through the PetStore interface, on every engine (pet-search-postgres.test.ts
// holds both engines to the same answers).
import { afterAll, describe, expect, it } from "vitest";
import { PET_SORTS, type PetSort } from "../../src/contract/name-search.js";
import { PET_STATUSES, type Pet, type PetStatus } from "../../src/contract/values.js";
import type { ListPetsQuery } from "../../src/store/pet-store.js";
import type { Store } from "../../src/store/store.js";
import { allPages, ENGINES, removeTempDirs } from "./support.js";

afterAll(removeTempDirs);

async function addAll(store: Store, pets: { name: string; status?: PetStatus; categoryId?: number }[]): Promise<Pet[]> {
  const created: Pet[] = [];
  for (const pet of pets) created.push(await store.pets.create({ status: "available", categoryId: 1, ...pet }));
  return created;
}

describe.each(ENGINES)("PetStore search and sort ($name)", ({ open }) => {
  it("finds names that contain the text, folded: ÉMILE finds émile and E + combining acute", async () => {
    const store = await open();
    const [emile, , decomposed, rex] = await addAll(store, [{ name: "émile" }, { name: "Emil" }, { name: "E\u0301MILE the cat" }, { name: "Rex" }]);
    const ids = async (search: string) => (await store.pets.list({ search, limit: 10 })).pets.map((pet) => pet.id);
    expect(await ids("ÉMILE")).toEqual([emile!.id, decomposed!.id]);
    expect(await ids("e\u0301m")).toEqual([emile!.id, decomposed!.id]);
    expect(await ids("REX")).toEqual([rex!.id]);
    expect(await ids("x")).toEqual([rex!.id]);
    expect(await ids("%")).toEqual([]);
    expect(await ids("_")).toEqual([]);
    expect(await ids("nobody")).toEqual([]);
    await store.close();
  });

  it("combines the text with status, category, limit and the cursor, in each order", async () => {
    const store = await open();
    const names = ["Rex", "rexa", "Max", "REXY", "Bo-rex", "Tom", "rex"];
    const pets = await addAll(store, names.map((name, i) => ({ name, status: PET_STATUSES[i % 3], categoryId: 1 + (i % 2) })));
    const id = (name: string) => pets[names.indexOf(name)]!.id;
    const rexes = ["Rex", "rexa", "REXY", "Bo-rex", "rex"];
    const orders: Record<PetSort, string[]> = {
      id: rexes,
      "-id": [...rexes].reverse(),
      name: ["Bo-rex", "Rex", "rex", "rexa", "REXY"],
      "-name": ["REXY", "rexa", "rex", "Rex", "Bo-rex"],
    };
    for (const sort of PET_SORTS) {
      expect(await allPages(store.pets, { search: "rex", sort, limit: 2 })).toEqual(
        [orders[sort].slice(0, 2), orders[sort].slice(2, 4), orders[sort].slice(4)].map((page) => page.map(id)),
      );
    }
    expect((await store.pets.list({ search: "rex", status: "available", limit: 10 })).pets.map((pet) => pet.name)).toEqual(["Rex", "REXY", "rex"]);
    expect((await store.pets.list({ search: "rex", categoryId: 2, sort: "name", limit: 10 })).pets.map((pet) => pet.name)).toEqual(["rexa", "REXY"]);
    expect(await store.pets.list({ search: "rex", status: "sold", categoryId: 1, limit: 10 })).toMatchObject({ hasMore: false });
    await store.close();
  });

  it("lists by name without a text, each filter in its own name order", async () => {
    const store = await open();
    const pets = await addAll(store, ["b", "B", "a", "Ä", "c"].map((name, i) => ({ name, status: PET_STATUSES[i % 2] })));
    const names = async (query: Omit<ListPetsQuery, "limit">) => (await store.pets.list({ ...query, limit: 10 })).pets.map((pet) => pet.name);
    expect(await names({ sort: "name" })).toEqual(["a", "b", "B", "c", "Ä"]);
    expect(await names({ sort: "-name" })).toEqual(["Ä", "c", "B", "b", "a"]);
    expect(await names({ sort: "name", status: "pending" })).toEqual(["B", "Ä"]);
    expect(await names({ sort: "-id" })).toEqual(["c", "Ä", "a", "B", "b"]);
    expect(await names({ sort: "-id", afterId: pets[3]!.id })).toEqual(["a", "B", "b"]);
    expect(await names({ sort: "name", afterId: pets[1]!.id, afterName: "b" })).toEqual(["c", "Ä"]);
    await store.close();
  });

  it("moves a renamed pet in name order and in what it is found by", async () => {
    const store = await open();
    const [alf, , zed] = await addAll(store, [{ name: "Alf" }, { name: "Max" }, { name: "Zed" }]);
    await store.pets.update(zed!.id, { name: "Abe" });
    await store.pets.update(alf!.id, { name: "ALF" });
    expect((await store.pets.list({ sort: "name", limit: 10 })).pets.map((pet) => pet.name)).toEqual(["Abe", "ALF", "Max"]);
    expect((await store.pets.list({ search: "zed", limit: 10 })).pets).toEqual([]);
    expect((await store.pets.list({ search: "ab", limit: 10 })).pets.map((pet) => pet.name)).toEqual(["Abe"]);
    await store.pets.delete(zed!.id);
    expect((await store.pets.list({ search: "ab", limit: 10 })).pets).toEqual([]);
    await store.close();
  });

  it("pages by name while pets are renamed: the renamed may move, every other pet comes once", async () => {
    const store = await open();
    const [ann, bob, , dan] = await addAll(store, ["Ann", "Bob", "Cid", "Dan", "Eve"].map((name) => ({ name })));
    const first = await store.pets.list({ sort: "name", limit: 2 });
    expect(first.pets.map((pet) => pet.name)).toEqual(["Ann", "Bob"]);
    // Ann moves past the cursor (seen again), Dan behind it (not seen), a new pet comes in ahead of it.
    await store.pets.update(ann!.id, { name: "Zoe" });
    await store.pets.update(dan!.id, { name: "Abe" });
    await store.pets.create({ name: "Cat", categoryId: 1, status: "available" });
    const rest = await allPages(store.pets, { sort: "name", limit: 2, afterId: bob!.id, afterName: "bob" });
    const names = async (ids: number[]) => Promise.all(ids.map(async (id) => (await store.pets.get(id))!.pet.name));
    expect(await names(rest.flat())).toEqual(["Cat", "Cid", "Eve", "Zoe"]);
    await store.close();
  });
});
