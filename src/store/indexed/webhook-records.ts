import * as z from "zod";
import { WEBHOOK_EVENT_TYPES } from "../../contract/webhook-schemas.js";
import type { WebhookRecord } from "../webhook-store.js";

/** An endpoint in the db file and the journal, whole, secrets included. */
export const WebhookRecordSchema = z.object({
  id: z.int().min(1),
  url: z.string().min(1),
  types: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  description: z.string().nullable(),
  enabled: z.boolean(),
  secret: z.string().startsWith("whsec_"),
  previousSecret: z.string().startsWith("whsec_").nullable().default(null),
  previousSecretUntil: z.iso.datetime().nullable().default(null),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

/** The endpoints held in memory, by id: the committed ones, ordered for paging. */
export class WebhookTable {
  readonly #byId = new Map<number, WebhookRecord>();
  #sorted: WebhookRecord[] | undefined;

  constructor(records: readonly WebhookRecord[] = []) {
    for (const record of records) this.#byId.set(record.id, Object.freeze({ ...record }));
  }

  get(id: number): WebhookRecord | undefined {
    return this.#byId.get(id);
  }

  get lastId(): number {
    return Math.max(0, ...this.#byId.keys());
  }

  put(records: Iterable<WebhookRecord>): void {
    for (const record of records) this.#byId.set(record.id, Object.freeze(record));
    this.#sorted = undefined;
  }

  remove(ids: Iterable<number>): void {
    for (const id of ids) this.#byId.delete(id);
    this.#sorted = undefined;
  }

  /** Ordered by id. */
  all(): readonly WebhookRecord[] {
    return (this.#sorted ??= [...this.#byId.values()].sort((a, b) => a.id - b.id));
  }

  /** The records as they will be once a batch's changes and removals apply, ordered by id. */
  after(changed: ReadonlyMap<number, WebhookRecord>, removed: ReadonlySet<number>): WebhookRecord[] {
    const byId = new Map(this.#byId);
    for (const [id, record] of changed) byId.set(id, record);
    for (const id of removed) byId.delete(id);
    return [...byId.values()].sort((a, b) => a.id - b.id);
  }
}
