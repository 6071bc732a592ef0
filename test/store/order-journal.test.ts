// Orders in the lowdb engine's files: on the same journal line as their pet's change, replayed
// idempotently, kept by whole-file rewrites, and their ids never handed out twice.
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { journalLines, newPet, openCounted, removeTempDirs, tempDbPath } from "./support.js";

afterAll(removeTempDirs);

const at = new Date(Date.UTC(2026, 10, 22, 12));

describe("orders in the lowdb files", () => {
  it("write the order and its pet's change on one journal line", async () => {
    const file = await tempDbPath();
    const { store } = await openCounted(file);
    const pet = await store.pets.create(newPet(1));
    const linesBefore = journalLines(file).length;
    const placed = await store.orders.place({ petId: pet.id, at });
    expect(placed.outcome).toBe("placed");
    const lines = journalLines(file).slice(linesBefore) as Array<{ orders?: unknown[]; updated?: Array<{ status: string }> }>;
    expect(lines).toHaveLength(1);
    expect(lines[0]!.orders).toHaveLength(1);
    expect(lines[0]!.updated?.[0]?.status).toBe("pending");
    await store.close();
  });

  it("replay to the same state however often the journal is replayed over a snapshot that already has it", async () => {
    const file = await tempDbPath();
    const { store } = await openCounted(file, { compaction: { ratio: 0, minBytes: 1 << 30 } });
    const pet = await store.pets.create(newPet(1));
    const placed = await store.orders.place({ petId: pet.id, at });
    if (placed.outcome !== "placed") throw new Error(placed.outcome);
    await store.orders.transition(placed.stored.order.id, "cancelled", at);
    // A crash copy: the journal as it is, over the db file as it was.
    const copy = join(dirname(await tempDbPath()), "db.json");
    await copyFile(file, copy);
    await copyFile(`${file}.journal`, `${copy}.journal`);
    await store.close();
    // The closed store folded the journal in; replaying the copy's journal over that snapshot changes nothing.
    await copyFile(file, copy);
    const reopened = (await openCounted(copy)).store;
    expect((await reopened.orders.get(placed.stored.order.id))?.order.status).toBe("cancelled");
    expect((await reopened.pets.get(pet.id))?.pet.status).toBe("available");
    await reopened.close();
  });

  it("keep orders through a whole-file rewrite and never reuse an order id, even one whose batch failed", async () => {
    const file = await tempDbPath();
    const { store } = await openCounted(file);
    const pet = await store.pets.create(newPet(1));
    const first = await store.orders.place({ petId: pet.id, at });
    if (first.outcome !== "placed") throw new Error(first.outcome);
    await store.orders.transition(first.stored.order.id, "cancelled", at);
    await store.close();
    const snapshot = JSON.parse(await readFile(file, "utf8")) as { nextOrderId: number; orders: Array<{ id: number; status: string }> };
    expect(snapshot.orders).toEqual([expect.objectContaining({ id: 1, status: "cancelled", revision: 2 })]);
    expect(snapshot.nextOrderId).toBe(2);
    const again = (await openCounted(file)).store;
    const second = await again.orders.place({ petId: pet.id, at });
    expect(second.outcome === "placed" && second.stored.order.id).toBe(2);
    await again.close();
  });

  it("open a file written before orders existed", async () => {
    const file = await tempDbPath();
    await writeFile(file, JSON.stringify({ version: 3, nextPetId: 2, pets: [{ id: 1, name: "Old", categoryId: 1, status: "available" }], keys: [] }));
    const { store } = await openCounted(file);
    expect(await store.orders.inventory()).toEqual({ available: 1, pending: 0, sold: 0 });
    const placed = await store.orders.place({ petId: 1, at });
    expect(placed.outcome === "placed" && placed.stored.order.id).toBe(1);
    await store.close();
  });
});
