import * as z from "zod";
import type { DeliveryRecord } from "../delivery-store.js";
import type { WebhookRecord } from "../webhook-store.js";

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

/** The deliveries held in memory: by id, the pending ones, and each endpoint's in id order. */
export class DeliveryTable {
  readonly #byId = new Map<number, DeliveryRecord>();
  readonly #pending = new Set<number>();
  readonly #byWebhook = new Map<number, number[]>();

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

  /** Ids of pending deliveries, oldest first. */
  pendingIds(): IterableIterator<number> {
    return this.#pending.values();
  }

  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Ids of an endpoint's deliveries, ascending. */
  idsOf(webhookId: number): readonly number[] {
    return this.#byWebhook.get(webhookId) ?? [];
  }

  /** New or changed records (new ones carry the newest ids); then the oldest finished beyond the bound are dropped. */
  put(records: Iterable<DeliveryRecord>): void {
    const touched = new Set<number>();
    for (const record of records) {
      if (!this.#byId.has(record.id)) this.#listOf(record.webhookId).push(record.id);
      this.#byId.set(record.id, Object.freeze(record));
      if (record.status === "pending") this.#pending.add(record.id);
      else this.#pending.delete(record.id);
      touched.add(record.webhookId);
    }
    for (const webhookId of touched) this.#prune(webhookId);
  }

  /** Forgets an endpoint's deliveries (it was removed). */
  removeWebhook(webhookId: number): void {
    for (const id of this.idsOf(webhookId)) {
      this.#byId.delete(id);
      this.#pending.delete(id);
    }
    this.#byWebhook.delete(webhookId);
  }

  /** Every record, by id, as the db file holds them. */
  records(): DeliveryRecord[] {
    return [...this.#byId.values()].sort((a, b) => a.id - b.id);
  }

  #listOf(webhookId: number): number[] {
    let list = this.#byWebhook.get(webhookId);
    if (!list) this.#byWebhook.set(webhookId, (list = []));
    return list;
  }

  #prune(webhookId: number): void {
    const ids = this.#byWebhook.get(webhookId);
    if (!ids || ids.length <= FINISHED_DELIVERIES_KEPT) return;
    let finished = ids.filter((id) => !this.#pending.has(id)).length;
    if (finished <= FINISHED_DELIVERIES_KEPT) return;
    const kept: number[] = [];
    for (const id of ids) {
      if (finished > FINISHED_DELIVERIES_KEPT && !this.#pending.has(id)) {
        this.#byId.delete(id);
        finished--;
      } else kept.push(id);
    }
    this.#byWebhook.set(webhookId, kept);
  }
}

/** Whether an endpoint is sent events of this type. */
export function wants(webhook: WebhookRecord, type: string): boolean {
  return webhook.enabled && (webhook.types.length === 0 || (webhook.types as readonly string[]).includes(type));
}
