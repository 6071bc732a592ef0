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
}

export function emptyBatch(): Batch {
  return { pets: [], updated: new Map(), deleted: new Set(), keys: [], revocations: new Map(), rotations: new Map(), orders: new Map(), idempotency: [] };
}

export function emptyStoreData(): StoreData {
  return { version: STORE_DATA_VERSION, nextPetId: 1, pets: [], keys: [], nextOrderId: 1, orders: [] };
}

/** The committed (durable) state, plus the id counter, which runs ahead of it. */
export class StoreState {
  readonly pets = new PetIndex();
  readonly keys = new KeyIndex();
  readonly orders = new OrderIndex();
  readonly idempotency = new IdempotencyIndex();
  /** The events of this run; their ids continue from the persisted counter. */
  readonly events: MemoryEventLog;
  readonly #now: () => number;
  #nextPetId: number;
  #nextOrderId: number;

  /**
   * `data` must be valid: pets sorted by unique id, keys with unique ids and hashes. `now` (ms)
   * decides which idempotency records have expired.
   */
  constructor(data: StoreData = emptyStoreData(), now: () => number = Date.now) {
    this.#now = now;
    this.events = new MemoryEventLog(data.lastEventId ?? 0, now);
    this.pets.put(data.pets.map(toStoredPet));
    this.keys.add(data.keys);
    this.idempotency.add((data.idempotency ?? []).filter((record) => isLive(record, now())));
    this.#nextPetId = Math.max(data.nextPetId, this.pets.lastId + 1);
    this.orders.put(data.orders.map(toStoredOrder));
    this.#nextOrderId = Math.max(data.nextOrderId, this.orders.lastId + 1);
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
  }
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
