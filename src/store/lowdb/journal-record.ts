import * as z from "zod";
import type { Commit } from "../indexed/group-commit.js";
import { toPetRecord } from "../indexed/pet-index.js";
import { OrderRecordSchema, toOrderRecord } from "../indexed/order-records.js";
import { WebhookRecordSchema } from "../indexed/webhook-records.js";
import { DeliveryRecordSchema } from "../indexed/delivery-table.js";
import type { DeliveryRecord } from "../delivery-store.js";
import { firstIssue, IdempotencyRecordSchema, KeyRecordSchema, PetRecordSchema } from "../indexed/records.js";

/**
 * What an attempt (or a retry asked for, or an endpoint's end) changes on a delivery that an
 * earlier line or the snapshot already holds whole. The rest of a delivery (its endpoint, event
 * and payload) never changes, so at thousands of attempts a second the journal does not carry
 * each payload a second time.
 */
const DeliveryChangeSchema = DeliveryRecordSchema.pick({
  id: true,
  status: true,
  attempts: true,
  nextAttemptAt: true,
  lastAttemptAt: true,
  lastStatusCode: true,
  lastError: true,
  lastResponse: true,
  lastDurationMs: true,
});
export type DeliveryChange = z.infer<typeof DeliveryChangeSchema>;

// [key id, ISO instant]
const KeyInstantsSchema = z.array(z.tuple([z.string().min(1), z.iso.datetime()]));

const JournalRecordSchema = z.object({
  nextPetId: z.int().min(1),
  /** Created pets. */
  pets: z.array(PetRecordSchema).default([]),
  /** Updated pets, whole, at their new revision. */
  updated: z.array(PetRecordSchema).default([]),
  /** Ids of deleted pets. */
  deleted: z.array(z.int().min(1)).default([]),
  keys: z.array(KeyRecordSchema).default([]),
  revoked: KeyInstantsSchema.default([]),
  touched: KeyInstantsSchema.default([]),
  /** Rotated keys, whole, with their new hash and the previous one. */
  rotated: z.array(KeyRecordSchema).default([]),
  /** Only on lines that place or move orders; their pets' changes are on the same line. */
  nextOrderId: z.int().min(1).optional(),
  /** Placed or moved orders, whole, at their new revision. */
  orders: z.array(OrderRecordSchema).default([]),
  /** The stored answers of this line's idempotent creates: in the same line as what they created. */
  idempotency: z.array(IdempotencyRecordSchema).default([]),
  /** Only on lines that sent events: the id of the last one. */
  lastEventId: z.int().min(1).optional(),
  /** Only on lines that create, change or remove webhook endpoints. */
  nextWebhookId: z.int().min(1).optional(),
  /** Created or changed endpoints, whole. */
  webhooks: z.array(WebhookRecordSchema).default([]),
  webhooksRemoved: z.array(z.int().min(1)).default([]),
  /** Only on lines that record or attempt deliveries: new ones, whole, and changes to known ones. */
  nextDeliveryId: z.int().min(1).optional(),
  deliveries: z.array(DeliveryRecordSchema).default([]),
  deliveryChanges: z.array(DeliveryChangeSchema).default([]),
});

/** One journal line: the changes of one group commit. */
export type JournalRecord = z.infer<typeof JournalRecordSchema>;

export interface ParsedJournal {
  records: JournalRecord[];
  /** Bytes up to the end of the last good line: what the journal keeps. */
  validLength: number;
  /** Bytes dropped from the end: a line whose append was cut short, so it was never acknowledged. */
  tornBytes: number;
}

/**
 * The journal line for one commit, newline included. Empty parts are left out. `isKnownDelivery`
 * says which deliveries are durable already (the state before this commit): those go as changes.
 */
export function encodeRecord(
  { batch, touches, nextPetId, nextOrderId, nextWebhookId, nextDeliveryId, lastEventId }: Commit,
  isKnownDelivery: (id: number) => boolean,
): Buffer {
  const record: Partial<JournalRecord> = { nextPetId };
  if (batch.pets.length > 0) record.pets = batch.pets;
  if (batch.updated.size > 0) record.updated = [...batch.updated.values()].map(toPetRecord);
  if (batch.deleted.size > 0) record.deleted = [...batch.deleted];
  if (batch.keys.length > 0) record.keys = batch.keys;
  if (batch.revocations.size > 0) record.revoked = [...batch.revocations];
  if (batch.rotations.size > 0) record.rotated = [...batch.rotations.values()];
  if (touches.size > 0) record.touched = [...touches];
  if (batch.orders.size > 0) Object.assign(record, { nextOrderId, orders: [...batch.orders.values()].map(toOrderRecord) });
  if (batch.idempotency.length > 0) record.idempotency = batch.idempotency;
  if (lastEventId > 0) record.lastEventId = lastEventId;
  if (batch.webhooks.size > 0 || batch.webhooksRemoved.size > 0) {
    Object.assign(record, { nextWebhookId, webhooks: [...batch.webhooks.values()], webhooksRemoved: [...batch.webhooksRemoved] });
  }
  if (batch.deliveries.size > 0) {
    const created: DeliveryRecord[] = [];
    const changed: DeliveryChange[] = [];
    for (const delivery of batch.deliveries.values()) {
      if (isKnownDelivery(delivery.id)) changed.push(changeOf(delivery));
      else created.push(delivery);
    }
    record.nextDeliveryId = nextDeliveryId;
    if (created.length > 0) record.deliveries = created;
    if (changed.length > 0) record.deliveryChanges = changed;
  }
  return Buffer.from(`${JSON.stringify(record)}\n`);
}

function changeOf({ id, status, attempts, nextAttemptAt, lastAttemptAt, lastStatusCode, lastError, lastResponse, lastDurationMs }: DeliveryRecord): DeliveryChange {
  return { id, status, attempts, nextAttemptAt, lastAttemptAt, lastStatusCode, lastError, lastResponse, lastDurationMs };
}

/**
 * Parses the journal's lines. The last line is torn when it has no newline or is not JSON:
 * its append never completed. Anything else wrong throws, naming the line.
 */
export function parseJournal(bytes: Buffer): ParsedJournal {
  let validLength = bytes.lastIndexOf(0x0a) + 1;
  const lines = bytes.subarray(0, validLength).toString("utf8").split("\n");
  lines.pop(); // the empty string after the final newline
  const last = lines.at(-1);
  if (last !== undefined && parseJson(last) === undefined) {
    lines.pop();
    validLength -= Buffer.byteLength(last) + 1;
  }
  const records = lines.map((line, index) => parseRecord(line, index + 1));
  return { records, validLength, tornBytes: bytes.length - validLength };
}

function parseRecord(line: string, number: number): JournalRecord {
  const json = parseJson(line);
  // Only the last line can be left unfinished by a crash (parseJournal drops it): this one was damaged later.
  if (json === undefined) throw new Error(`line ${number}: not JSON, and not the last line, so it was damaged after it was written`);
  const result = JournalRecordSchema.safeParse(json);
  if (!result.success) throw new Error(`line ${number}: ${firstIssue(result.error)}`);
  return result.data;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
