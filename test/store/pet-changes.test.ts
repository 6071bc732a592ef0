// Update and delete, over every engine: revisions, conditions, indexes that follow the change.
import { afterAll, describe, expect, it } from "vitest";
import type { Store } from "../../src/store/store.js";
import { ENGINES, newPet, removeTempDirs } from "./support.js";

afterAll(removeTempDirs);

const ids = (page: { pets: { id: number }[] }) => page.pets.map((pet) => pet.id);

async function withPets(open: () => Promise<Store>, count: number): Promise<Store> {
  const store = await open();
  for (let i = 0; i < count; i++) await store.pets.create(newPet(i));
  return store;
}

describe.each(ENGINES)("PetStore changes ($name)", ({ open }) => {
  it("updates only the fields in the patch, one revision more each time", async () => {
    const store = await withPets(open, 2);
    const first = await store.pets.update(1, { status: "sold" });
    expect(first).toEqual({ outcome: "updated", stored: { pet: { id: 1, name: "pet 0", categoryId: 1, status: "sold" }, revision: 2 } });
    const second = await store.pets.update(1, { name: "Rex", categoryId: 7 });
    expect(second).toEqual({ outcome: "updated", stored: { pet: { id: 1, name: "Rex", categoryId: 7, status: "sold" }, revision: 3 } });
    expect(await store.pets.get(1)).toEqual({ pet: { id: 1, name: "Rex", categoryId: 7, status: "sold" }, revision: 3 });
    expect(await store.pets.get(2)).toEqual({ pet: { id: 2, name: "pet 1", categoryId: 2, status: "available" }, revision: 1 });
    await store.close();
  });

  it("writes nothing for a patch that changes nothing, and refuses a pet it could not load again", async () => {
    const store = await withPets(open, 1);
    const stored = { pet: { id: 1, name: "pet 0", categoryId: 1, status: "available" }, revision: 1 };
    expect(await store.pets.update(1, { name: "pet 0", status: "available" })).toEqual({ outcome: "unchanged", stored });
    expect(await store.pets.update(1, {})).toEqual({ outcome: "unchanged", stored });
    await expect(store.pets.update(1, { name: "" })).rejects.toThrow(/invalid pet: name/);
    expect(await store.pets.get(1)).toEqual(stored);
    expect(await store.pets.update(9, { name: "x" })).toEqual({ outcome: "not_found" });
    await store.close();
  });

  it("changes nothing when the pet is not at the expected revision", async () => {
    const store = await withPets(open, 1);
    await store.pets.update(1, { name: "two" });
    const current = { pet: { id: 1, name: "two", categoryId: 1, status: "available" }, revision: 2 };
    expect(await store.pets.update(1, { name: "three" }, { ifRevision: 1 })).toEqual({ outcome: "precondition_failed", stored: current });
    expect(await store.pets.delete(1, { ifRevision: 1 })).toBe("precondition_failed");
    expect(await store.pets.get(1)).toEqual(current);
    expect(await store.pets.update(1, { name: "three" }, { ifRevision: 2 })).toMatchObject({ outcome: "updated", stored: { revision: 3 } });
    expect(await store.pets.delete(1, { ifRevision: 3 })).toBe("deleted");
    await store.close();
  });

  it("deletes a pet from get and every listing, for good; its id is never given again", async () => {
    const store = await withPets(open, 3);
    expect(await store.pets.delete(3)).toBe("deleted");
    expect(await store.pets.delete(3)).toBe("not_found");
    expect(await store.pets.get(3)).toBeUndefined();
    expect(await store.pets.update(3, { name: "back" })).toEqual({ outcome: "not_found" });
    expect(ids(await store.pets.list({ limit: 10 }))).toEqual([1, 2]);
    expect(ids(await store.pets.list({ categoryId: 3, limit: 10 }))).toEqual([]);
    expect(ids(await store.pets.list({ status: "available", categoryId: 3, limit: 10 }))).toEqual([]);
    expect((await store.pets.create(newPet(0))).id).toBe(4);
    await store.close();
  });

  it("moves a pet between the status and category listings at once", async () => {
    const store = await withPets(open, 6); // categories 1,2,3,1,2,3
    await store.pets.update(2, { status: "sold" });
    await store.pets.update(4, { status: "sold", categoryId: 2 });
    expect(ids(await store.pets.list({ status: "sold", limit: 10 }))).toEqual([2, 4]);
    expect(ids(await store.pets.list({ status: "available", limit: 10 }))).toEqual([1, 3, 5, 6]);
    expect(ids(await store.pets.list({ categoryId: 1, limit: 10 }))).toEqual([1]);
    expect(ids(await store.pets.list({ categoryId: 2, limit: 10 }))).toEqual([2, 4, 5]);
    expect(ids(await store.pets.list({ status: "sold", categoryId: 2, limit: 10 }))).toEqual([2, 4]);
    expect(ids(await store.pets.list({ status: "available", categoryId: 2, limit: 10 }))).toEqual([5]);
    await store.pets.update(2, { status: "available" });
    expect(ids(await store.pets.list({ status: "available", categoryId: 2, limit: 10 }))).toEqual([2, 5]);
    await store.close();
  });

  it("pages through a category, with and without a status, hasMore exact at the boundary", async () => {
    const store = await open();
    await Promise.all(Array.from({ length: 30 }, (_, i) => store.pets.create(newPet(i, i % 2 === 0 ? "available" : "sold"))));
    // Category 1 holds pets 1, 4, 7, ..., 28; the sold ones among them are the even ids.
    const first = await store.pets.list({ categoryId: 1, limit: 4 });
    expect(first).toMatchObject({ hasMore: true });
    expect(ids(first)).toEqual([1, 4, 7, 10]);
    expect(ids(await store.pets.list({ categoryId: 1, afterId: 10, limit: 10 }))).toEqual([13, 16, 19, 22, 25, 28]);
    const sold = await store.pets.list({ categoryId: 1, status: "sold", afterId: 5, limit: 3 });
    expect(sold).toEqual({ pets: expect.any(Array), revisions: [1, 1, 1], hasMore: true });
    expect(ids(sold)).toEqual([10, 16, 22]);
    await store.pets.update(16, { name: "renamed" });
    expect((await store.pets.list({ categoryId: 1, status: "sold", afterId: 5, limit: 3 })).revisions).toEqual([1, 2, 1]);
    expect(await store.pets.list({ categoryId: 1, status: "sold", afterId: 22, limit: 1 })).toMatchObject({ hasMore: false });
    expect(await store.pets.list({ categoryId: 99, limit: 5 })).toEqual({ pets: [], revisions: [], hasMore: false });
    await store.close();
  });

  it("applies concurrent updates of one pet one after the other", async () => {
    const store = await withPets(open, 1);
    const outcomes = await Promise.all([
      store.pets.update(1, { name: "a" }),
      store.pets.update(1, { categoryId: 5 }),
      store.pets.update(1, { status: "pending" }),
    ]);
    expect(outcomes.map((outcome) => outcome.outcome)).toEqual(["updated", "updated", "updated"]);
    expect(await store.pets.get(1)).toEqual({ pet: { id: 1, name: "a", categoryId: 5, status: "pending" }, revision: 4 });
    await store.close();
  });
});
