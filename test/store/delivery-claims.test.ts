// How the file engine hands out due deliveries: in turns across endpoints, never one not yet due,
// never one under a live lease, and the finished ones kept per endpoint bounded while pending ones
// are all kept. Through the store's own interface, over a memory store with the file engine's code.
import { afterEach, describe, expect, it } from "vitest";
import type { DeliveryStore } from "../../src/store/delivery-store.js";
import { FINISHED_DELIVERIES_KEPT } from "../../src/store/indexed/delivery-table.js";
import { createIndexedStore } from "../../src/store/indexed/indexed-store.js";
import { StoreState } from "../../src/store/indexed/store-state.js";
import { openMemoryStore } from "../../src/store/memory/open-memory-store.js";
import type { Store } from "../../src/store/store.js";

const SECRET = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
const T0 = Date.parse("2026-11-27T10:00:00.000Z");
const LEASE = 60_000;

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

async function storeWithEndpoints(count: number): Promise<{ store: Store; ids: number[] }> {
  store = await openMemoryStore(() => T0);
  const ids: number[] = [];
  for (let n = 0; n < count; n++) {
    const webhook = await store.webhooks.create({ url: `https://hooks.example.com/${n}`, types: [], description: null, secret: SECRET, at: new Date(T0) });
    ids.push(webhook.id);
  }
  return { store, ids };
}

/** Each create is one pet.created delivery to every endpoint. */
async function createPets(target: Store, count: number): Promise<void> {
  for (let n = 0; n < count; n++) await target.pets.create({ name: `Pet ${n}`, categoryId: 1, status: "available" });
}

function claim(deliveries: DeliveryStore, at: number, limit: number, skipWebhooks: number[] = []) {
  return deliveries.claim({ now: new Date(at), limit, skipWebhooks, leaseMs: LEASE });
}

function attempt(at: number, succeeded: boolean, nextAttemptAt: number | null) {
  return { at: new Date(at), succeeded, statusCode: succeeded ? 200 : 503, error: succeeded ? null : "answered 503", response: null, durationMs: 1, nextAttemptAt: nextAttemptAt === null ? null : new Date(nextAttemptAt) };
}

describe("claiming due deliveries (file engine)", () => {
  it("takes endpoints in turn: one endpoint's backlog does not fill a claim while another has deliveries due", async () => {
    const { store, ids } = await storeWithEndpoints(1);
    await createPets(store, 30);
    const late = await store.webhooks.create({ url: "https://hooks.example.com/late", types: [], description: null, secret: SECRET, at: new Date(T0) });
    await createPets(store, 2);
    const claimed = await claim(store.deliveries, T0, 6);
    expect(claimed.map((item) => item.webhook.id)).toEqual([ids[0], late.id, ids[0], late.id, ids[0], ids[0]]);
    // Oldest first within an endpoint.
    const first = claimed.filter((item) => item.webhook.id === ids[0]).map((item) => item.delivery.id);
    expect(first).toEqual([...first].sort((a, b) => a - b));
  });

  it("skips the endpoints it is told to, and leaves their deliveries for a later claim", async () => {
    const { store, ids } = await storeWithEndpoints(2);
    await createPets(store, 3);
    const claimed = await claim(store.deliveries, T0, 10, [ids[0]!]);
    expect(claimed.map((item) => item.webhook.id)).toEqual([ids[1], ids[1], ids[1]]);
    expect((await claim(store.deliveries, T0, 10)).map((item) => item.webhook.id)).toEqual([ids[0], ids[0], ids[0]]);
  });

  it("never hands out a delivery under a live lease; once the lease ends without a record, it is due again", async () => {
    const { store } = await storeWithEndpoints(1);
    await createPets(store, 1);
    const [first] = await claim(store.deliveries, T0, 10);
    expect(first).toBeDefined();
    expect(await claim(store.deliveries, T0 + LEASE - 1, 10)).toEqual([]);
    const again = await claim(store.deliveries, T0 + LEASE, 10);
    expect(again.map((item) => item.delivery.id)).toEqual([first!.delivery.id]);
  });

  it("keeps the lease of an attempt that could not be recorded: once it ends, the delivery is due again", async () => {
    let failing = false;
    store = createIndexedStore({
      name: ":memory:",
      state: new StoreState(undefined, () => T0),
      persist: async () => {
        if (failing) throw new Error("disk full");
      },
    });
    await store.webhooks.create({ url: "https://hooks.example.com/0", types: [], description: null, secret: SECRET, at: new Date(T0) });
    await createPets(store, 1);
    const [first] = await claim(store.deliveries, T0, 10);
    failing = true;
    await expect(store.deliveries.record(first!.delivery.id, attempt(T0 + 10, true, null))).rejects.toThrow(/disk full/);
    failing = false;
    expect(await claim(store.deliveries, T0 + LEASE - 1, 10)).toEqual([]);
    const again = await claim(store.deliveries, T0 + LEASE, 10);
    expect(again.map((item) => [item.delivery.id, item.delivery.status, item.delivery.attempts])).toEqual([[first!.delivery.id, "pending", 0]]);
    // Leased anew: not handed out twice.
    expect(await claim(store.deliveries, T0 + LEASE, 10)).toEqual([]);
  });

  it("waits for a failed attempt's next time, and a retry asked for makes it due at once", async () => {
    const { store, ids } = await storeWithEndpoints(1);
    await createPets(store, 1);
    const [first] = await claim(store.deliveries, T0, 10);
    const recorded = await store.deliveries.record(first!.delivery.id, attempt(T0 + 10, false, T0 + 5_000));
    expect(recorded).toMatchObject({ status: "pending", attempts: 1 });
    expect(await claim(store.deliveries, T0 + 4_999, 10)).toEqual([]);
    expect((await claim(store.deliveries, T0 + 5_000, 10)).map((item) => item.delivery.attempts)).toEqual([1]);
    await store.deliveries.record(first!.delivery.id, attempt(T0 + 5_010, false, T0 + 60_000));
    await store.deliveries.retryNow(ids[0]!, first!.delivery.id, new Date(T0 + 6_000));
    expect((await claim(store.deliveries, T0 + 6_000, 10)).map((item) => item.delivery.id)).toEqual([first!.delivery.id]);
  });

  it("hands out nothing of a delivery once it succeeded, and counts pending ones exactly", async () => {
    const { store } = await storeWithEndpoints(2);
    await createPets(store, 3);
    expect(await store.deliveries.pendingCount()).toBe(6);
    const claimed = await claim(store.deliveries, T0, 10);
    for (const item of claimed.slice(0, 4)) await store.deliveries.record(item.delivery.id, attempt(T0 + 1, true, null));
    expect(await store.deliveries.pendingCount()).toBe(2);
    expect(await claim(store.deliveries, T0 + LEASE, 10)).toHaveLength(2);
  });

  it("keeps every pending delivery and the last finished ones, up to the bound, per endpoint", async () => {
    const { store, ids } = await storeWithEndpoints(1);
    const extra = 5;
    await createPets(store, FINISHED_DELIVERIES_KEPT + extra + 2);
    const claimed = await claim(store.deliveries, T0, FINISHED_DELIVERIES_KEPT + extra);
    for (const item of claimed) await store.deliveries.record(item.delivery.id, attempt(T0 + 1, true, null));
    const kept = await store.deliveries.list({ webhookId: ids[0]!, limit: 100_000 });
    // Newest first: the 2 pending, then the finished ones but the oldest `extra`.
    expect(kept.deliveries).toHaveLength(FINISHED_DELIVERIES_KEPT + 2);
    expect(kept.deliveries.slice(0, 2).map((delivery) => delivery.status)).toEqual(["pending", "pending"]);
    expect(kept.deliveries.at(-1)!.id).toBe(claimed[extra]!.delivery.id);
    expect(await store.deliveries.get(ids[0]!, claimed[0]!.delivery.id)).toBeUndefined();
    expect(await store.deliveries.pendingCount()).toBe(2);
  });
});
