// Issue 14, "Tests and proof": kill -9 the built server while orders are placed, approved,
// delivered and cancelled, restart it on the same db, three times over. An order and its pet's
// change are one journal line, so the files never hold an order without its pet change or the
// reverse, and every acknowledged transition is there after the restart.
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import type { Order, Pet } from "../../src/contract/values.js";
import { tempDbPath } from "../helpers/serve-process.js";
import { journalLines, readOnDisk } from "../store/support.js";
import { killedAfterEachTest } from "./killed-servers.js";
import { listAllPets, postPet, type Api } from "./store-api.js";

const ROUNDS = 3;
const CONNECTIONS = 20;
/** The pet's status each order status implies, as the transitions set it. */
const PET_STATUS = { placed: "pending", approved: "pending", delivered: "sold", cancelled: "available" } as const;

const serve = killedAfterEachTest();

function call(api: Api, method: string, path: string, body: object): Promise<Response> {
  return fetch(`${api.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${api.key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** Acknowledged order statuses by id, and the one sent but never answered, if any. */
type Seen = Map<number, { acknowledged: string; inFlight?: string }>;

/** One loop: a pet, an order for it, then approve and deliver, or cancel; stops at its first unanswered request. */
async function orderUntilKilled(api: Api, tag: string, seen: Seen, unexpected: string[]): Promise<void> {
  for (let n = 0; ; n++) {
    try {
      const created = await postPet(api, { name: `${tag} n${n}`, categoryId: 1 });
      if (created.status !== 201) return void unexpected.push(`POST /pets ${created.status}`);
      const pet = (await created.json()) as Pet;
      const placed = await call(api, "POST", "/store/orders", { petId: pet.id });
      if (placed.status !== 201) return void unexpected.push(`POST /store/orders ${placed.status}`);
      const order = (await placed.json()) as Order;
      const state = { acknowledged: "placed" } as { acknowledged: string; inFlight?: string };
      seen.set(order.id, state);
      for (const next of n % 2 === 0 ? ["approved", "delivered"] : ["cancelled"]) {
        state.inFlight = next;
        const moved = await call(api, "PATCH", `/store/orders/${order.id}`, { status: next });
        if (moved.status !== 200) return void unexpected.push(`PATCH ${moved.status}`);
        state.acknowledged = next;
        delete state.inFlight;
      }
    } catch {
      return;
    }
  }
}

/** The orders the files hold: the snapshot, then every journal line in order. */
function ordersOnDisk(dbPath: string): Order[] {
  const snapshot = JSON.parse(readFileSync(dbPath, "utf8")) as { orders?: Order[] };
  const orders = new Map((snapshot.orders ?? []).map((order) => [order.id, order]));
  for (const line of journalLines(dbPath) as Array<{ orders?: Order[] }>) {
    for (const order of line.orders ?? []) orders.set(order.id, order);
  }
  return [...orders.values()];
}

/** Every order's pet has the status its order implies; every pending pet has an open order. */
function expectConsistent(pets: Pet[], orders: Order[], when: string): void {
  const petById = new Map(pets.map((pet) => [pet.id, pet]));
  const wrong: string[] = [];
  for (const order of orders) {
    const status = petById.get(order.petId)?.status;
    if (status !== PET_STATUS[order.status]) wrong.push(`order ${order.id} is ${order.status} but pet ${order.petId} is ${status}`);
  }
  const ordered = new Set(orders.map((order) => order.petId));
  for (const pet of pets) if (pet.status !== "available" && !ordered.has(pet.id)) wrong.push(`pet ${pet.id} is ${pet.status} without an order`);
  expect(wrong, `${when}: orders and pets disagree`).toEqual([]);
}

function expectAcknowledged(orders: Order[], seen: Seen, when: string): void {
  const byId = new Map(orders.map((order) => [order.id, order.status]));
  const wrong: string[] = [];
  for (const [id, { acknowledged, inFlight }] of seen) {
    const found = byId.get(id);
    if (found !== acknowledged && found !== inFlight) wrong.push(`order ${id}: found ${found}, acknowledged ${acknowledged}`);
  }
  expect(wrong, `${when}: orders not as acknowledged`).toEqual([]);
}

it(`keeps each order and its pet's change together through ${ROUNDS} kill -9s`, async () => {
  const dbPath = await tempDbPath();
  const seen: Seen = new Map();
  for (let round = 1; round <= ROUNDS; round++) {
    const { server, api } = await serve(dbPath);
    const unexpected: string[] = [];
    const before = seen.size;
    const loading = Promise.all(Array.from({ length: CONNECTIONS }, (_, c) => orderUntilKilled(api, `r${round} c${c}`, seen, unexpected)));
    await expect.poll(() => seen.size - before, { timeout: 15_000, interval: 5 }).toBeGreaterThanOrEqual(2 * CONNECTIONS);
    await sleep(100 + round * 150);
    server.child.kill("SIGKILL");
    await loading;
    await server.stop();
    expect(unexpected).toEqual([]);
    const orders = ordersOnDisk(dbPath);
    expectConsistent(readOnDisk(dbPath).pets, orders, `on disk after kill ${round}`);
    expectAcknowledged(orders, seen, `on disk after kill ${round}`);
  }
  const { server, api } = await serve(dbPath);
  const orders = ordersOnDisk(dbPath);
  expectConsistent(await listAllPets(api), orders, "after the last restart");
  expectAcknowledged(orders, seen, "after the last restart");
  expect(await server.stop("SIGTERM")).toBe(0);
}, 60_000);
