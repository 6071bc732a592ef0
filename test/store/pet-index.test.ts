// The file engine's pet index: pets held by id in an array, revisions apart, the lists in step.
import { describe, expect, it } from "vitest";
import type { Pet } from "../../src/contract/values.js";
import { PetIndex } from "../../src/store/indexed/pet-index.js";

const pet = (id: number, status: Pet["status"] = "available", categoryId = 1): Pet => Object.freeze({ id, name: `Pet ${id}`, categoryId, status });

describe("PetIndex", () => {
  it("finds, lists, counts and forgets pets with ids far apart, as well as dense ones", () => {
    const index = new PetIndex();
    const ids = [1, 2, 3, 1_000_000, 2 ** 31 + 5, Number.MAX_SAFE_INTEGER];
    index.put(ids.map((id) => ({ pet: pet(id, id % 2 === 0 ? "sold" : "available"), revision: 1 })));
    expect(index.size).toBe(6);
    expect(index.lastId).toBe(Number.MAX_SAFE_INTEGER);
    for (const id of ids) expect(index.get(id)).toEqual({ pet: pet(id, id % 2 === 0 ? "sold" : "available"), revision: 1 });
    for (const missing of [0, -1, 4, 1.5, Number.NaN, 2 ** 31 + 4]) expect(index.get(missing)).toBeUndefined();
    expect(index.list({ limit: 10 }).pets.map((p) => p.id)).toEqual(ids);
    index.remove([2, 2 ** 31 + 5, 99]);
    expect(index.size).toBe(4);
    expect(index.get(2)).toBeUndefined();
    expect(index.countByStatus()).toEqual({ available: 3, pending: 0, sold: 1 });
  });

  it("keeps each pet's revision past 1, moves it between lists, and writes records as the file holds them", () => {
    const index = new PetIndex();
    index.put([1, 2, 3].map((id) => ({ pet: pet(id), revision: 1 })));
    index.put([{ pet: pet(2, "pending", 4), revision: 3 }]);
    expect(index.get(2)).toEqual({ pet: pet(2, "pending", 4), revision: 3 });
    expect(index.list({ status: "pending", categoryId: 4, limit: 10 })).toEqual({ pets: [pet(2, "pending", 4)], revisions: [3], hasMore: false });
    expect(index.list({ status: "available", limit: 10 }).pets.map((p) => p.id)).toEqual([1, 3]);
    expect(index.records()).toEqual([pet(1), { ...pet(2, "pending", 4), revision: 3 }, pet(3)]);
    // Removed and put again (as a restore would): it starts over at revision 1.
    index.remove([2]);
    index.put([{ pet: pet(2), revision: 1 }]);
    expect(index.get(2)?.revision).toBe(1);
    expect(index.size).toBe(3);
  });
});
