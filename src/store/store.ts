import type { EventFeed } from "./event-feed.js";
import type { IdempotencyStore } from "./idempotency-store.js";
import type { StoreData } from "./indexed/store-state.js";
import type { KeyStore } from "./key-store.js";
import type { OrderStore } from "./order-store.js";
import type { PetStore } from "./pet-store.js";
import type { SpentTickets } from "./spent-tickets.js";
import type { WebhookStore } from "./webhook-store.js";
import type { DeliveryStore } from "./delivery-store.js";

/**
 * An open storage engine: the pet and key stores over one db, and how to close it. In a file of
 * its own so that each engine can implement it without importing the others.
 */
export interface Store {
  pets: PetStore;
  keys: KeyStore;
  orders: OrderStore;
  /** Webhook endpoints (and the deliveries changes cause), in the same engine as the pets. */
  webhooks: WebhookStore;
  deliveries: DeliveryStore;
  /** The stored answers of idempotent creates, written by `pets.create` and `keys.create`. */
  idempotency: IdempotencyStore;
  /**
   * Everything committed, consistent as of one instant, in the db file's form: what
   * `petstore db backup` saves while the server runs. Never waits for more than one group commit.
   */
  snapshot(): Promise<StoreData>;
  /** Event-stream tickets already used: shared by every instance on one database. */
  spentTickets: SpentTickets;
  /** Every change as an event, after it is durable (GET /v1/events). */
  events: EventFeed;
  /** Waits for pending writes, saves in-memory touches, releases the lock. Idempotent. */
  close(): Promise<void>;
}
