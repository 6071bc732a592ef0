import * as z from "zod";
import type { DeliveryRecord } from "../delivery-store.js";
import type { WebhookRecord } from "../webhook-store.js";
import { DueHeap, type DueEntry } from "./due-heap.js";

/** A delivery in the db file and the journal, whole: a later line with the same id replaces it. */
export const DeliveryRecordSchema = z.object({
  id: z.int().min(1),
  webhookId: z.int().min(1),
  eventId: z.int().min(1).nullable(),
  type: z.string().min(1),
  payload: z.string(),
  status: z.enum(["pending", "succeeded", "failed"]),
  attempts: z.int().min(0),
  createdAt: z.iso.datetime(),
  nextAttemptAt: z.iso.datetime().nullable(),
  lastAttemptAt: z.iso.datetime().nullable(),
  lastStatusCode: z.int().nullable(),
  lastError: z.string().nullable(),
  lastResponse: z.string().nullable(),
  lastDurationMs: z.number().min(0).nullable(),
});

/** Finished deliveries kept per endpoint for GET .../deliveries; pending ones are all kept. */
export const FINISHED_DELIVERIES_KEPT = 1000;

/** A pending delivery's place in its endpoint's due order, true while the delivery is as it was then. */
interface DueDelivery extends DueEntry {
  attempts: number;
  nextAttemptAt: string | null;
}

/**
 * One endpoint's deliveries: every id in ascending order (with holes where finished ones were
 * dropped, compacted now and then), the pending ones, the finished ones in the order they
 * finished, and the pending ones by due time. A dead receiver's backlog can hold a quarter of a
 * million deliveries: nothing done per commit or per claim walks it.
 */
class EndpointDeliveries {
  ids: number[] = [];
  holes = 0;
  readonly pending = new Set<number>();
  readonly finished: number[] = [];
  finishedHead = 0;
  finishedCount = 0;
  readonly due = new DueHeap<DueDelivery>();
}

/** The deliveries held in memory: by id, and each endpoint's (see EndpointDeliveries). */
export class DeliveryTable {
  readonly #byId = new Map<number, DeliveryRecord>();
  readonly #endpoints = new Map<number, EndpointDeliveries>();
  #pendingCount = 0;

  constructor(records: readonly DeliveryRecord[] = []) {
    this.put([...records].sort((a, b) => a.id - b.id));
  }

  get(id: number): DeliveryRecord | undefined {
    return this.#byId.get(id);
  }

  get lastId(): number {
    let last = 0;
    for (const id of this.#byId.keys()) last = Math.max(last, id);
    return last;
  }

  get pendingCount(): number {
    return this.#pendingCount;
  }

  /** The endpoints with a pending delivery. */
  webhooksWithPending(): number[] {
    return [...this.#endpoints].filter(([, endpoint]) => endpoint.pending.size > 0).map(([id]) => id);
  }

  /** Ids of an endpoint's deliveries, ascending, with holes where finished ones were dropped (get() says undefined). */
  idsOf(webhookId: number): readonly number[] {
    return this.#endpoints.get(webhookId)?.ids ?? [];
  }

  /** An endpoint's deliveries, oldest first. */
  recordsOf(webhookId: number): DeliveryRecord[] {
    const ids = this.#endpoints.get(webhookId)?.ids ?? [];
    return ids.map((id) => this.#byId.get(id)).filter((record) => record !== undefined);
  }

  /** An endpoint's pending deliveries. */
  pendingOf(webhookId: number): DeliveryRecord[] {
    return [...(this.#endpoints.get(webhookId)?.pending ?? [])].map((id) => this.#byId.get(id)!);
  }

  /**
   * The endpoint's pending delivery due first, if due at `at`, taken out of the due order: the
   * caller sends it, and puts it back with dueAgainAt if its attempt is never recorded.
   */
  takeDue(webhookId: number, at: number): DeliveryRecord | undefined {
    const due = this.#endpoints.get(webhookId)?.due;
    while (due?.peek() && due.peek()!.due <= at) {
      const entry = due.pop()!;
      const record = this.#byId.get(entry.id);
      if (record?.status === "pending" && record.attempts === entry.attempts && record.nextAttemptAt === entry.nextAttemptAt) return record;
    }
    return undefined;
  }

  /** Due again at `at` unless it changes before (an attempt recorded, a retry asked for). */
  dueAgainAt(record: DeliveryRecord, at: number): void {
    this.#endpoints.get(record.webhookId)?.due.push({ due: at, id: record.id, attempts: record.attempts, nextAttemptAt: record.nextAttemptAt });
  }

  /** New or changed records (new ones carry the newest ids); then the oldest finished beyond the bound are dropped. */
  put(records: Iterable<DeliveryRecord>): void {
    const touched = new Set<EndpointDeliveries>();
    for (const record of records) {
      const endpoint = this.#endpointOf(record.webhookId);
      const held = this.#byId.get(record.id);
      if (!held) endpoint.ids.push(record.id);
      this.#byId.set(record.id, Object.freeze(record));
      this.#account(endpoint, held, record);
      if (record.status === "pending") this.dueAgainAt(record, dueOf(record));
      touched.add(endpoint);
    }
    for (const endpoint of touched) this.#prune(endpoint);
  }

  /** Forgets an endpoint's deliveries (it was removed). */
  removeWebhook(webhookId: number): void {
    const endpoint = this.#endpoints.get(webhookId);
    if (!endpoint) return;
    for (const id of endpoint.ids) this.#byId.delete(id);
    this.#pendingCount -= endpoint.pending.size;
    this.#endpoints.delete(webhookId);
  }

  /** Every record, by id, as the db file holds them. */
  records(): DeliveryRecord[] {
    return [...this.#byId.values()].sort((a, b) => a.id - b.id);
  }

  #endpointOf(webhookId: number): EndpointDeliveries {
    let endpoint = this.#endpoints.get(webhookId);
    if (!endpoint) this.#endpoints.set(webhookId, (endpoint = new EndpointDeliveries()));
    return endpoint;
  }

  /** Keeps the pending set, the finished queue and the counts true as a record changes status. */
  #account(endpoint: EndpointDeliveries, held: DeliveryRecord | undefined, record: DeliveryRecord): void {
    const wasPending = held?.status === "pending";
    const wasFinished = held !== undefined && !wasPending;
    if (record.status === "pending") {
      if (!wasPending) {
        endpoint.pending.add(record.id);
        this.#pendingCount++;
      }
      if (wasFinished) endpoint.finishedCount--;
      return;
    }
    if (wasPending) {
      endpoint.pending.delete(record.id);
      this.#pendingCount--;
    }
    if (!wasFinished) {
      endpoint.finished.push(record.id);
      endpoint.finishedCount++;
    }
  }

  #prune(endpoint: EndpointDeliveries): void {
    while (endpoint.finishedCount > FINISHED_DELIVERIES_KEPT && endpoint.finishedHead < endpoint.finished.length) {
      const id = endpoint.finished[endpoint.finishedHead++]!;
      const record = this.#byId.get(id);
      // A stale place: dropped already, or pending again (retried by hand) and queued anew when it ends.
      if (!record || record.status === "pending") continue;
      this.#byId.delete(id);
      endpoint.finishedCount--;
      endpoint.holes++;
    }
    if (endpoint.finishedHead > 1024 && endpoint.finishedHead * 2 > endpoint.finished.length) {
      endpoint.finished.splice(0, endpoint.finishedHead);
      endpoint.finishedHead = 0;
    }
    if (endpoint.holes > 1024 && endpoint.holes * 2 > endpoint.ids.length) {
      endpoint.ids = endpoint.ids.filter((id) => this.#byId.has(id));
      endpoint.holes = 0;
    }
  }
}

/** A new delivery is due at once (at its commit); a retried one when its next attempt says. */
function dueOf(record: DeliveryRecord): number {
  if (record.attempts === 0 || record.nextAttemptAt === null) return 0;
  return Date.parse(record.nextAttemptAt);
}

/** Whether an endpoint is sent events of this type. */
export function wants(webhook: WebhookRecord, type: string): boolean {
  return webhook.enabled && (webhook.types.length === 0 || (webhook.types as readonly string[]).includes(type));
}
