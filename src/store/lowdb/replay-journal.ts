import type { KeyRecord } from "../key-store.js";
import type { OrderRecord } from "../indexed/order-records.js";
import type { PetRecord } from "../indexed/records.js";
import type { StoreData } from "../indexed/store-state.js";
import type { JournalRecord } from "./journal-record.js";
import type { WebhookRecord } from "../webhook-store.js";
import type { DeliveryRecord } from "../delivery-store.js";

/**
 * The snapshot with the journal's records applied in order. Idempotent: a record that is
 * already in the snapshot (a compaction that crashed before emptying the journal) changes
 * nothing, and a pet the snapshot no longer holds comes back only until the line that deleted
 * it is replayed. Throws, naming the line, when a record contradicts the snapshot.
 */
export function replayJournal(data: StoreData, records: readonly JournalRecord[]): StoreData {
  // A clean start (the journal compacted at the last stop): nothing to apply, and rebuilding
  // tables of a million pets only to list them again would cost seconds of start-up.
  if (records.length === 0) return withoutEmptyParts(data);
  const pets = new PetTable(data.pets);
  const keys = new KeyTable(data.keys);
  const orders = new OrderTable(data.orders);
  // A later record with the same id (a key reused once expired) replaces the earlier one.
  const idempotency = new Map((data.idempotency ?? []).map((record) => [record.id, record]));
  let nextPetId = data.nextPetId;
  let nextOrderId = data.nextOrderId;
  let lastEventId = data.lastEventId ?? 0;
  const webhooks = new Map((data.webhooks ?? []).map((record) => [record.id, record]));
  let nextWebhookId = data.nextWebhookId ?? 1;
  const deliveries = new Map((data.deliveries ?? []).map((record) => [record.id, record]));
  let nextDeliveryId = data.nextDeliveryId ?? 1;
  records.forEach((record, index) => {
    const where = `line ${index + 1}`;
    for (const pet of record.pets) pets.put(pet, where);
    for (const pet of record.updated) pets.put(pet, where);
    for (const id of record.deleted) pets.delete(id);
    for (const key of record.keys) keys.add(key, where);
    for (const rotated of record.rotated) keys.rotate(rotated, where);
    for (const [id, at] of record.revoked) keys.revoke(id, at, where);
    for (const [id, at] of record.touched) keys.touch(id, at, where);
    for (const order of record.orders) orders.put(order, where);
    for (const stored of record.idempotency) idempotency.set(stored.id, stored);
    nextPetId = Math.max(nextPetId, record.nextPetId);
    nextOrderId = Math.max(nextOrderId, record.nextOrderId ?? 1);
    lastEventId = Math.max(lastEventId, record.lastEventId ?? 0);
    // Whole records, so replaying a line over a newer snapshot leaves the newest one.
    for (const webhook of record.webhooks) webhooks.set(webhook.id, webhook);
    for (const id of record.webhooksRemoved) webhooks.delete(id);
    nextWebhookId = Math.max(nextWebhookId, record.nextWebhookId ?? 1);
    for (const delivery of record.deliveries) deliveries.set(delivery.id, delivery);
    // On a delivery the snapshot dropped since (finished, beyond the number kept): nothing to change.
    for (const change of record.deliveryChanges) {
      const delivery = deliveries.get(change.id);
      if (delivery) deliveries.set(change.id, { ...delivery, ...change });
    }
    nextDeliveryId = Math.max(nextDeliveryId, record.nextDeliveryId ?? 1);
  });
  // A removed endpoint's deliveries go with it, whichever line recorded them.
  for (const [id, delivery] of deliveries) if (!webhooks.has(delivery.webhookId)) deliveries.delete(id);
  const stored = idempotency.size > 0 ? { idempotency: [...idempotency.values()] } : {};
  const events = lastEventId > 0 ? { lastEventId } : {};
  const hooks = nextWebhookId > 1 ? { nextWebhookId, webhooks: sortedWebhooks(webhooks) } : {};
  const sent = nextDeliveryId > 1 ? { nextDeliveryId, deliveries: sortedById(deliveries) } : {};
  return { version: data.version, nextPetId, pets: pets.records(), keys: keys.records(), nextOrderId, orders: orders.records(), ...stored, ...events, ...hooks, ...sent };
}

function sortedWebhooks(byId: Map<number, WebhookRecord>): WebhookRecord[] {
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

function sortedById(byId: Map<number, DeliveryRecord>): DeliveryRecord[] {
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

function withoutEmptyParts(data: StoreData): StoreData {
  const { idempotency, lastEventId, ...rest } = data;
  const stored = idempotency !== undefined && idempotency.length > 0 ? { idempotency } : {};
  const events = lastEventId !== undefined && lastEventId > 0 ? { lastEventId } : {};
  return { ...rest, ...stored, ...events };
}

/** Pets by id as records are replayed; a record older than the held revision is a no-op. */
class PetTable {
  readonly #byId: Map<number, PetRecord>;
  #newest: number;
  // Pets put back although older than the newest: only a later delete line explains them.
  readonly #unexplained = new Map<number, string>();

  constructor(records: readonly PetRecord[]) {
    this.#byId = new Map(records.map((pet) => [pet.id, pet]));
    this.#newest = records.at(-1)?.id ?? 0;
  }

  put(pet: PetRecord, where: string): void {
    const held = this.#byId.get(pet.id);
    if (held) {
      const revision = pet.revision ?? 1;
      const heldRevision = held.revision ?? 1;
      if (revision === heldRevision && !samePet(held, pet)) {
        throw new Error(`${where}: pet ${pet.id} differs from the one in the database`);
      }
      if (revision > heldRevision) this.#byId.set(pet.id, pet);
      return;
    }
    if (pet.id <= this.#newest && !this.#unexplained.has(pet.id)) this.#unexplained.set(pet.id, where);
    this.#newest = Math.max(this.#newest, pet.id);
    this.#byId.set(pet.id, pet);
  }

  delete(id: number): void {
    this.#byId.delete(id);
    this.#unexplained.delete(id);
  }

  records(): PetRecord[] {
    for (const [id, where] of this.#unexplained) {
      throw new Error(`${where}: pet ${id} is older than the newest pet but missing`);
    }
    return [...this.#byId.values()].sort((a, b) => a.id - b.id);
  }
}

function samePet(a: PetRecord, b: PetRecord): boolean {
  return a.name === b.name && a.categoryId === b.categoryId && a.status === b.status;
}

/** Keys by id, with their hashes checked unique, as records are replayed. */
class KeyTable {
  readonly #byId: Map<string, KeyRecord>;
  readonly #idByHash: Map<string, string>;

  constructor(records: readonly KeyRecord[]) {
    this.#byId = new Map(records.map((record) => [record.id, record]));
    this.#idByHash = new Map(records.map((record) => [record.hash, record.id]));
  }

  add(record: KeyRecord, where: string): void {
    const held = this.#byId.get(record.id);
    if (held && held.hash !== record.hash) throw new Error(`${where}: key ${record.id} has another secret in the database`);
    if (held) return;
    if (this.#idByHash.has(record.hash)) throw new Error(`${where}: key ${record.id} has the secret of another key`);
    this.#byId.set(record.id, record);
    this.#idByHash.set(record.hash, record.id);
  }

  /** The rotated record replaces the held one; replaying it again over a newer snapshot changes nothing. */
  rotate(record: KeyRecord, where: string): void {
    const held = this.#known(record.id, where);
    if (held.hash === record.hash) return;
    this.#idByHash.delete(held.hash);
    this.#byId.set(record.id, { ...record, revokedAt: held.revokedAt, lastUsedAt: held.lastUsedAt ?? record.lastUsedAt });
    this.#idByHash.set(record.hash, record.id);
  }

  /** A key revoked earlier keeps its first instant. */
  revoke(id: string, at: string, where: string): void {
    const held = this.#known(id, where);
    if (held.revokedAt === null) this.#byId.set(id, { ...held, revokedAt: at });
  }

  /** Touches can be replayed over a newer snapshot: the later instant wins. */
  touch(id: string, at: string, where: string): void {
    const held = this.#known(id, where);
    if (held.lastUsedAt === null || Date.parse(at) > Date.parse(held.lastUsedAt)) {
      this.#byId.set(id, { ...held, lastUsedAt: at });
    }
  }

  records(): KeyRecord[] {
    return [...this.#byId.values()];
  }

  #known(id: string, where: string): KeyRecord {
    const held = this.#byId.get(id);
    if (!held) throw new Error(`${where}: key ${JSON.stringify(id)} is unknown`);
    return held;
  }
}

/** Orders by id as records are replayed: a record at or below the held revision is a no-op. */
class OrderTable {
  readonly #byId: Map<number, OrderRecord>;

  constructor(records: readonly OrderRecord[]) {
    this.#byId = new Map(records.map((order) => [order.id, order]));
  }

  put(order: OrderRecord, where: string): void {
    const held = this.#byId.get(order.id);
    const revision = order.revision ?? 1;
    const heldRevision = held?.revision ?? 1;
    if (held && revision === heldRevision && (held.status !== order.status || held.petId !== order.petId)) {
      throw new Error(`${where}: order ${order.id} differs from the one in the database`);
    }
    if (!held || revision > heldRevision) this.#byId.set(order.id, order);
  }

  records(): OrderRecord[] {
    return [...this.#byId.values()].sort((a, b) => a.id - b.id);
  }
}
