import type { Pet } from "../../contract/values.js";
import { isLive, type IdempotencyRecord } from "../idempotency-store.js";
import type { KeyRecord } from "../key-store.js";
import { IdempotencyIndex } from "./idempotency-index.js";
import type { StoredPet } from "../pet-store.js";
import type { StoredOrder } from "../order-store.js";
import { KeyIndex } from "./key-index.js";
import { OrderIndex } from "./order-index.js";
import { toOrderRecord, toStoredOrder, type OrderRecord } from "./order-records.js";
import { firstAfter, PetIndex, toPetRecord } from "./pet-index.js";
import { toStoredPet, type PetRecord } from "./records.js";
import { MemoryEventLog } from "../events/memory-event-log.js";
import type { WebhookRecord } from "../webhook-store.js";
import { WebhookTable } from "./webhook-records.js";
import type { DeliveryRecord } from "../delivery-store.js";
import { DeliveryTable, wants } from "./delivery-table.js";
import type { EventType, StoreEvent } from "../../contract/events.js";
import { webhookPayload, type StoreEventData } from "../../contract/webhook-events.js";

/** The db file's format version (see lowdb/upgrade-file.ts): 2 since keys can expire and be rotated, 3 since they have scopes. */
export const STORE_DATA_VERSION = 3;

/** Everything a store holds, as it is written to the db file. */
export interface StoreData {
  version: typeof STORE_DATA_VERSION;
  nextPetId: number;
  /** Sorted by id. Deleted pets are simply absent; nextPetId keeps their ids from coming back. */
  pets: PetRecord[];
  keys: KeyRecord[];
  /** Sorted by id; never deleted. nextOrderId runs ahead of them, as nextPetId does. */
  nextOrderId: number;
  orders: OrderRecord[];
  /** Stored answers of idempotent creates; expired ones are left out of each rewrite. Absent when none. */
  idempotency?: IdempotencyRecord[];
  /** The id of the last event sent (GET /v1/events), so a restart never reuses one. Absent before the first. */
  lastEventId?: number;
  /** Webhook endpoints, sorted by id, and the id counter; absent before the first. */
  nextWebhookId?: number;
  webhooks?: WebhookRecord[];
  /** Pending deliveries and the newest finished ones, sorted by id, and their id counter. */
  nextDeliveryId?: number;
  deliveries?: DeliveryRecord[];
}

/** The changes that one group commit makes durable together. */
export interface Batch {
  /** Created pets (revision 1). */
  pets: Pet[];
  /** Updated pets by id, each at its new revision; the last update of a pet in the batch wins. */
  updated: Map<number, StoredPet>;
  /** Ids of deleted pets. */
  deleted: Set<number>;
  keys: KeyRecord[];
  /** Key id to revokedAt. */
  revocations: Map<string, string>;
  /** Key id to its record after a rotation (new secret, old one in its grace period). */
  rotations: Map<string, KeyRecord>;
  /** Placed or moved orders by id, whole; staged with the change of their pet, in the same batch. */
  orders: Map<number, StoredOrder>;
  /** The records of the idempotent creates in this batch: durable with them or not at all. */
  idempotency: IdempotencyRecord[];
  /** Created or changed webhook endpoints by id, whole. */
  webhooks: Map<number, WebhookRecord>;
  webhooksRemoved: Set<number>;
  /** New or changed deliveries by id, whole: the commit adds those its events cause. */
  deliveries: Map<number, DeliveryRecord>;
  /** Events of the endpoints themselves (webhook.disabled), numbered after the batch's changes. */
  webhookEvents: { type: EventType; data: Record<string, unknown> }[];
}

export function emptyBatch(): Batch {
  return { pets: [], updated: new Map(), deleted: new Set(), keys: [], revocations: new Map(), rotations: new Map(), orders: new Map(), idempotency: [], webhooks: new Map(), webhooksRemoved: new Set(), deliveries: new Map(), webhookEvents: [] };
}

export function emptyStoreData(): StoreData {
  return { version: STORE_DATA_VERSION, nextPetId: 1, pets: [], keys: [], nextOrderId: 1, orders: [] };
}

/** The committed (durable) state, plus the id counter, which runs ahead of it. */
export class StoreState {
  readonly pets: PetIndex;
  readonly keys = new KeyIndex();
  readonly orders = new OrderIndex();
  readonly idempotency = new IdempotencyIndex();
  readonly webhooks: WebhookTable;
  readonly deliveries: DeliveryTable;
  /** The events of this run; their ids continue from the persisted counter. */
  readonly events: MemoryEventLog;
  readonly #now: () => number;
  #nextPetId: number;
  #nextOrderId: number;
  #nextWebhookId: number;
  #nextDeliveryId: number;

  /**
   * `data` must be valid: pets sorted by unique id, keys with unique ids and hashes. `now` (ms)
   * decides which idempotency records have expired. `pets`, when given, is `data.pets` indexed
   * already (see petsIndexOf), which the state then owns.
   */
  constructor(data: StoreData = emptyStoreData(), now: () => number = Date.now, pets: PetIndex = petsIndexOf(data)) {
    this.#now = now;
    this.events = new MemoryEventLog(data.lastEventId ?? 0, now);
    this.pets = pets;
    this.keys.add(data.keys);
    this.idempotency.add((data.idempotency ?? []).filter((record) => isLive(record, now())));
    this.#nextPetId = Math.max(data.nextPetId, this.pets.lastId + 1);
    this.orders.put(data.orders.map(toStoredOrder));
    this.#nextOrderId = Math.max(data.nextOrderId, this.orders.lastId + 1);
    this.webhooks = new WebhookTable(data.webhooks ?? []);
    this.#nextWebhookId = Math.max(data.nextWebhookId ?? 1, this.webhooks.lastId + 1);
    this.deliveries = new DeliveryTable(data.deliveries ?? []);
    this.#nextDeliveryId = Math.max(data.nextDeliveryId ?? 1, this.deliveries.lastId + 1);
  }

  get nextDeliveryId(): number {
    return this.#nextDeliveryId;
  }

  takeDeliveryId(): number {
    return this.#nextDeliveryId++;
  }

  /**
   * Adds to `batch` one pending delivery per event and endpoint that wants it, so that they are
   * durable with the changes themselves: on the same journal line, or not at all.
   */
  addDeliveries(batch: Batch, events: readonly StoreEvent[]): void {
    if (events.length === 0) return;
    const endpoints = this.webhooks.after(batch.webhooks, batch.webhooksRemoved);
    if (endpoints.length === 0) return;
    for (const event of events) {
      // A store event's data is the record after the change, as batchEvents built it.
      const payload = webhookPayload(event.id, event.type, event.at, event.data as StoreEventData);
      for (const webhook of endpoints) {
        if (!wants(webhook, event.type)) continue;
        const id = this.takeDeliveryId();
        batch.deliveries.set(id, pendingDelivery(id, webhook.id, event.id, event.type, payload, event.at));
      }
    }
  }

  get nextWebhookId(): number {
    return this.#nextWebhookId;
  }

  /** Hands out the next webhook endpoint id; never reused, as pet ids. */
  takeWebhookId(): number {
    return this.#nextWebhookId++;
  }

  get nextOrderId(): number {
    return this.#nextOrderId;
  }

  /** Hands out the next order id; like pet ids, one given to a failed batch is skipped. */
  takeOrderId(): number {
    return this.#nextOrderId++;
  }

  get nextPetId(): number {
    return this.#nextPetId;
  }

  /** Hands out the next id. An id given to a batch that fails is skipped, never reused. */
  takePetId(): number {
    return this.#nextPetId++;
  }

  /** The clock of commits: event times. */
  now(): number {
    return this.#now();
  }

  /** The data as it will be once `batch` is applied; the state itself is not changed. */
  snapshot(batch: Batch, lastEventId = this.events.last): StoreData {
    const idempotency = this.idempotency.live(this.#now(), batch.idempotency);
    const webhooks = this.webhooks.after(batch.webhooks, batch.webhooksRemoved);
    return {
      version: STORE_DATA_VERSION,
      nextPetId: this.#nextPetId,
      pets: petsAfter(this.pets.records(), batch),
      keys: this.keys.concat(batch.revocations, batch.keys, batch.rotations),
      nextOrderId: this.#nextOrderId,
      orders: ordersAfter(this.orders.records(), batch),
      // Left out when empty: a db that never saw an Idempotency-Key stays as older versions wrote it.
      ...(idempotency.length > 0 ? { idempotency } : {}),
      ...(lastEventId > 0 ? { lastEventId } : {}),
      // Left out until the first endpoint: a db without webhooks stays as older versions wrote it.
      ...(this.#nextWebhookId > 1 ? { nextWebhookId: this.#nextWebhookId, webhooks } : {}),
      ...(this.#nextDeliveryId > 1 ? { nextDeliveryId: this.#nextDeliveryId, deliveries: this.#deliveriesAfter(batch) } : {}),
    };
  }

  /** Makes a durable batch visible. */
  apply(batch: Batch): void {
    this.pets.put(batch.pets.map((pet) => ({ pet, revision: 1 })));
    this.pets.put([...batch.updated.values()]);
    this.pets.remove(batch.deleted);
    this.keys.add(batch.keys);
    this.keys.rotate(batch.rotations.values());
    this.keys.revoke(batch.revocations);
    this.orders.put(batch.orders.values());
    this.idempotency.add(batch.idempotency);
    this.webhooks.put(batch.webhooks.values());
    this.webhooks.remove(batch.webhooksRemoved);
    this.deliveries.put(batch.deliveries.values());
    for (const id of batch.webhooksRemoved) this.deliveries.removeWebhook(id);
  }

  #deliveriesAfter(batch: Batch): DeliveryRecord[] {
    const byId = new Map(this.deliveries.records().map((record) => [record.id, record]));
    for (const [id, record] of batch.deliveries) byId.set(id, record);
    const removed = batch.webhooksRemoved;
    return [...byId.values()].filter((record) => !removed.has(record.webhookId)).sort((a, b) => a.id - b.id);
  }
}

/** The pets of `data` indexed, as a state over `data` holds them. */
export function petsIndexOf(data: StoreData): PetIndex {
  const index = new PetIndex();
  index.put(data.pets.map(toStoredPet));
  return index;
}

/** The committed records (sorted by id) with `batch` applied: updates and deletes in place, creates (the newest ids) at the end. */
function petsAfter(records: PetRecord[], batch: Batch): PetRecord[] {
  for (const stored of batch.updated.values()) {
    const at = firstAfter(records, stored.pet.id - 1);
    if (records[at]?.id === stored.pet.id) records[at] = toPetRecord(stored);
  }
  for (const id of batch.deleted) {
    const at = firstAfter(records, id - 1);
    if (records[at]?.id === id) records.splice(at, 1);
  }
  return batch.pets.length === 0 ? records : records.concat(batch.pets);
}

/** The committed order records with `batch` applied: moved orders in place, new ones (the newest ids) at the end. */
function ordersAfter(records: OrderRecord[], batch: Batch): OrderRecord[] {
  for (const stored of [...batch.orders.values()].sort((a, b) => a.order.id - b.order.id)) {
    const at = firstAfter(records, stored.order.id - 1);
    if (records[at]?.id === stored.order.id) records[at] = toOrderRecord(stored);
    else records.push(toOrderRecord(stored));
  }
  return records;
}

/** A delivery recorded with its event, due at once. */
export function pendingDelivery(id: number, webhookId: number, eventId: number | null, type: string, payload: string, at: string): DeliveryRecord {
  return {
    id,
    webhookId,
    eventId,
    type,
    payload,
    status: "pending",
    attempts: 0,
    createdAt: at,
    nextAttemptAt: at,
    lastAttemptAt: null,
    lastStatusCode: null,
    lastError: null,
    lastResponse: null,
    lastDurationMs: null,
  };
}
