import type { Store } from "../store.js";
import { MemorySpentTickets } from "../spent-tickets.js";
import { GroupCommit, type Persist } from "./group-commit.js";
import { IndexedIdempotencyStore } from "./indexed-idempotency-store.js";
import { IndexedKeyStore } from "./indexed-key-store.js";
import { IndexedOrderStore } from "./indexed-order-store.js";
import { IndexedPetStore } from "./indexed-pet-store.js";
import { IndexedWebhookStore } from "./indexed-webhook-store.js";
import { IndexedDeliveryStore } from "./indexed-delivery-store.js";
import { emptyBatch, type StoreState } from "./store-state.js";

export interface IndexedStoreParts {
  /** What errors name: the db file. */
  name: string;
  state: StoreState;
  persist: Persist;
  /** Runs in `close()` once the last batch is settled: a journal compacts there. */
  finish?: () => Promise<void>;
  /** Runs last in `close()`, even when `finish` fails. */
  release?: () => Promise<void>;
}

/** Assembles the pet, key and order stores over one state and one group commit. */
export function createIndexedStore({ name, state, persist, finish, release }: IndexedStoreParts): Store {
  const commit = new GroupCommit(state, persist, name);
  let closing: Promise<void> | undefined;
  // Each needs the other: orders stage their pet's change, pets ask whether an order holds them.
  const pets: IndexedPetStore = new IndexedPetStore(state, commit, (petId) => orders.openOrderNow(petId));
  const orders = new IndexedOrderStore(state, commit, pets);
  return {
    pets,
    orders,
    keys: new IndexedKeyStore(state, commit),
    webhooks: new IndexedWebhookStore(state, commit),
    deliveries: new IndexedDeliveryStore(state, commit),
    idempotency: new IndexedIdempotencyStore(state),
    // One process holds the db (its lock): what it spent is all there is to know.
    spentTickets: new MemorySpentTickets(),
    // The state holds only what is durable and changes between group commits, never during one
    // turn of the event loop: a snapshot taken in one turn is consistent without stopping writes.
    snapshot: async () => state.snapshot(emptyBatch()),
    events: state.events,
    close: () => (closing ??= closeStore(commit, finish, release)),
  };
}

async function closeStore(commit: GroupCommit, finish?: () => Promise<void>, release?: () => Promise<void>): Promise<void> {
  commit.close();
  try {
    await commit.idle();
    await finish?.();
  } finally {
    await release?.();
  }
}
