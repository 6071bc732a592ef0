// Deliveries in the lowdb engine's journal: a new delivery goes whole, on the line of the change
// that caused it; an attempt on it goes as the fields an attempt changes, without the payload a
// second time; and the journal replays to the same deliveries, after a crash and over a
// snapshot that already has them.
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Store } from "../../src/store/store.js";
import { journalLines, newPet, openCounted, removeTempDirs, tempDbPath } from "./support.js";

afterAll(removeTempDirs);

const SECRET = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
const T0 = Date.parse("2026-11-27T10:00:00.000Z");
const LEASE = 60_000;

type DeliveryLine = { deliveries?: Array<Record<string, unknown>>; deliveryChanges?: Array<Record<string, unknown>> };

async function endpointAndOneDelivery(store: Store) {
  const webhook = await store.webhooks.create({ url: "https://hooks.example.com/a", types: [], description: null, secret: SECRET, at: new Date(T0) });
  const pet = await store.pets.create(newPet(1));
  const [claimed] = await store.deliveries.claim({ now: new Date(T0), limit: 1, skipWebhooks: [], leaseMs: LEASE });
  if (!claimed) throw new Error("nothing to claim");
  return { webhook, pet, delivery: claimed.delivery };
}

const succeeded = { at: new Date(T0 + 1_000), succeeded: true, statusCode: 200, error: null, response: "ok", durationMs: 12.5, nextAttemptAt: null };
const refused = { at: new Date(T0 + 1_000), succeeded: false, statusCode: 503, error: "answered 503", response: "busy", durationMs: 3, nextAttemptAt: new Date(T0 + 61_000) };

describe("deliveries in the lowdb journal", () => {
  it("writes a new delivery whole, and an attempt on it as its changes without the payload", async () => {
    const file = await tempDbPath();
    const { store } = await openCounted(file, { compaction: { ratio: 0, minBytes: 1 << 30 } });
    const { delivery } = await endpointAndOneDelivery(store);
    const created = (journalLines(file) as DeliveryLine[]).find((line) => line.deliveries);
    expect(created?.deliveries).toEqual([expect.objectContaining({ id: delivery.id, payload: delivery.payload, status: "pending", attempts: 0 })]);
    const before = journalLines(file).length;
    await store.deliveries.record(delivery.id, refused);
    const lines = (journalLines(file) as DeliveryLine[]).slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.deliveries).toBeUndefined();
    expect(lines[0]!.deliveryChanges).toEqual([
      {
        id: delivery.id,
        status: "pending",
        attempts: 1,
        nextAttemptAt: new Date(T0 + 61_000).toISOString(),
        lastAttemptAt: new Date(T0 + 1_000).toISOString(),
        lastStatusCode: 503,
        lastError: "answered 503",
        lastResponse: "busy",
        lastDurationMs: 3,
      },
    ]);
    await store.close();
  });

  it("replays the changes after a crash, and again over a snapshot that already has them", async () => {
    const file = await tempDbPath();
    const { store } = await openCounted(file, { compaction: { ratio: 0, minBytes: 1 << 30 } });
    const { webhook, delivery } = await endpointAndOneDelivery(store);
    await store.deliveries.record(delivery.id, refused);
    await store.deliveries.record(delivery.id, succeeded);
    const expected = await store.deliveries.get(webhook.id, delivery.id);
    expect(expected).toMatchObject({ status: "succeeded", attempts: 2, lastStatusCode: 200, lastResponse: "ok", payload: delivery.payload });
    // A crash copy: the db file as it was at open, and the journal as it is.
    const journal = await readFile(`${file}.journal`);
    const copy = join(dirname(await tempDbPath()), "db.json");
    await copyFile(file, copy);
    await writeFile(`${copy}.journal`, journal);
    const crashed = (await openCounted(copy)).store;
    expect(await crashed.deliveries.get(webhook.id, delivery.id)).toEqual(expected);
    expect(await crashed.deliveries.pendingCount()).toBe(0);
    await crashed.close();
    // The closed store folded the journal in; replaying the old journal over that snapshot changes nothing.
    await store.close();
    const again = join(dirname(await tempDbPath()), "db.json");
    await copyFile(file, again);
    await writeFile(`${again}.journal`, journal);
    const replayed = (await openCounted(again)).store;
    expect(await replayed.deliveries.get(webhook.id, delivery.id)).toEqual(expected);
    await replayed.close();
  });
});
