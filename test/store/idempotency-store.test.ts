// The store's half of idempotent creates, over every engine: the record is written with what it
// created, found while live, refused twice, replaced once expired; the lowdb journal holds both in
// one line and its rewrites drop expired records; PostgreSQL deletes expired rows.
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { Pet } from "../../src/contract/values.js";
import { IdempotencyKeyTakenError, type IdempotentWrite } from "../../src/store/idempotency-store.js";
import type { KeyRecord } from "../../src/store/key-store.js";
import type { StoredOrder } from "../../src/store/order-store.js";
import type { PostgresIdempotencyStore } from "../../src/store/postgres/idempotency-rows.js";
import { ENGINES, journalLines, keyRecord, newPet, openCounted, removeTempDirs, tempDbPath } from "./support.js";

afterAll(removeTempDirs);

const DAY_MS = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 10, 22, 12);

function write<T extends { id: number | string }>(id: string, at = T0): IdempotentWrite<T> {
  return { id, fingerprint: `fp-${id}`, createdAt: new Date(at).toISOString(), seal: (created) => `sealed-${created.id}` };
}

describe.each(ENGINES)("idempotent creates ($name)", ({ open }) => {
  it("stores the sealed answer with the pet, finds it for 24 hours, and refuses the id a second time", async () => {
    const store = await open();
    const pet = await store.pets.create(newPet(1), { idempotency: write<Pet>("a") });
    expect(await store.idempotency.find("a", T0 + DAY_MS - 1)).toEqual({
      id: "a",
      fingerprint: "fp-a",
      createdAt: new Date(T0).toISOString(),
      answer: `sealed-${pet.id}`,
    });
    await expect(store.pets.create(newPet(2), { idempotency: write<Pet>("a", T0 + 1000) })).rejects.toBeInstanceOf(IdempotencyKeyTakenError);
    expect((await store.pets.list({ limit: 10 })).pets).toEqual([pet]);
    expect(await store.idempotency.find("a", T0 + DAY_MS)).toBeUndefined();
    await store.close();
  });

  it("stores an order's record with the order and its pet's change; a taken id places nothing and leaves the pet available", async () => {
    const store = await open();
    const [first, second] = [await store.pets.create(newPet(1)), await store.pets.create(newPet(2))];
    const orderWrite = (at = T0): IdempotentWrite<StoredOrder> => ({
      id: "o",
      fingerprint: "fp-o",
      createdAt: new Date(at).toISOString(),
      seal: (stored) => `sealed-order-${stored.order.id}`,
    });
    const placed = await store.orders.place({ petId: first.id, at: new Date(T0) }, { idempotency: orderWrite() });
    expect(placed.outcome).toBe("placed");
    const orderId = placed.outcome === "placed" ? placed.stored.order.id : 0;
    expect((await store.idempotency.find("o", T0))?.answer).toBe(`sealed-order-${orderId}`);
    await expect(store.orders.place({ petId: second.id, at: new Date(T0) }, { idempotency: orderWrite(T0 + 1000) })).rejects.toBeInstanceOf(
      IdempotencyKeyTakenError,
    );
    expect((await store.pets.get(second.id))?.pet.status).toBe("available");
    expect((await store.orders.list({ petId: second.id, limit: 10 })).orders).toEqual([]);
    await store.close();
  });

  it("replaces an expired record when the id is used again", async () => {
    const store = await open();
    await store.pets.create(newPet(1), { idempotency: write<Pet>("b") });
    const again = await store.pets.create(newPet(2), { idempotency: write<Pet>("b", T0 + DAY_MS) });
    expect((await store.idempotency.find("b", T0 + DAY_MS))?.answer).toBe(`sealed-${again.id}`);
    await store.close();
  });

  it("writes keys' records too, and mixes idempotent and plain creates in one batch", async () => {
    const store = await open();
    const key = await store.keys.create(keyRecord("key_idem"), { idempotency: write<KeyRecord>("k") });
    expect((await store.idempotency.find("k", T0))?.answer).toBe(`sealed-${key.id}`);
    await expect(store.keys.create(keyRecord("key_other"), { idempotency: write<KeyRecord>("k") })).rejects.toBeInstanceOf(IdempotencyKeyTakenError);
    expect((await store.keys.list()).map((record) => record.id)).toEqual(["key_idem"]);
    const pets = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.pets.create(newPet(i), i % 2 ? { idempotency: write<Pet>(`m${i}`) } : {})),
    );
    expect(new Set(pets.map((pet) => pet.id)).size).toBe(20);
    for (let i = 1; i < 20; i += 2) expect((await store.idempotency.find(`m${i}`, T0))?.answer).toBe(`sealed-${pets[i]!.id}`);
    await store.close();
  });

  // Registered only where it applies (the file engines drop expired records at rewrite, tested above).
  if (ENGINES[0]!.name === "postgres") it("deletes expired rows (PostgreSQL)", async () => {
    const store = await open();
    await store.pets.create(newPet(1), { idempotency: write<Pet>("old") });
    await store.pets.create(newPet(2), { idempotency: write<Pet>("new", T0 + DAY_MS) });
    const rows = store.idempotency as PostgresIdempotencyStore;
    expect(await rows.prune(T0 + DAY_MS + 1)).toBe(1);
    expect(await rows.find("new", T0 + DAY_MS + 1)).toBeDefined();
    await store.close();
  });
});

describe("idempotency records in the lowdb files", () => {
  it("are in the same journal line as the pet, come back after a reopen, and leave the file once expired", async () => {
    const file = await tempDbPath();
    let now = T0;
    const first = await openCounted(file, { now: () => now });
    const pet = await first.store.pets.create(newPet(1), { idempotency: write<Pet>("j") });
    const line = journalLines(file).find((candidate) => candidate.pets?.some((stored) => stored.id === pet.id));
    expect((line as { idempotency?: unknown[] }).idempotency).toEqual([expect.objectContaining({ id: "j", answer: `sealed-${pet.id}` })]);
    await first.store.close();
    expect(JSON.parse(readFileSync(file, "utf8")).idempotency).toHaveLength(1);

    const second = await openCounted(file, { now: () => now });
    expect((await second.store.idempotency.find("j", now))?.answer).toBe(`sealed-${pet.id}`);
    now = T0 + DAY_MS;
    await second.store.pets.create(newPet(2));
    await second.store.close();
    // The rewrite at close leaves the expired record out.
    expect(JSON.parse(readFileSync(file, "utf8")).idempotency).toBeUndefined();
  });
});
