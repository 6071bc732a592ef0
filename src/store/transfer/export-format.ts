// The export format: NDJSON, one header line naming the format and its version, one line per
// record, one end line with the counts. The end line lets an import tell a whole file from one
// cut short (a full disk, a killed pipe) before it writes anything.
import * as z from "zod";
import { IdempotencyRecordSchema, KeyRecordSchema, PetRecordSchema, firstIssue } from "../indexed/records.js";
import { OrderRecordSchema } from "../indexed/order-records.js";
import { STORE_DATA_VERSION, type StoreData } from "../indexed/store-state.js";
import { WebhookRecordSchema } from "../indexed/webhook-records.js";
import { DeliveryRecordSchema } from "../indexed/delivery-table.js";

export const EXPORT_FORMAT = "petstore-export";
/**
 * 2 since keys have scopes: a petstore that reads only version 1 would drop them (zod strips
 * unknown fields) and import a read-only key as one that can write, so it must refuse instead.
 * Version 1 exports read as they are: their keys have the scopes of a key created without any.
 */
const KEYS_WITH_SCOPES_VERSION = 2;
/**
 * 3 for an export that carries webhook endpoints or deliveries (or only their id counters): a
 * petstore that reads only version 2 would drop the counters, and hand out delivery ids, so
 * `webhook-id`s, that receivers already saw and drop as duplicates. An export without them stays
 * version 2, which such a petstore still reads.
 */
const WEBHOOKS_VERSION = 3;
export const EXPORT_VERSION = WEBHOOKS_VERSION;
const OLDEST_EXPORT_VERSION = 1;

const HeaderSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.int(),
  nextPetId: z.int().min(1),
  nextOrderId: z.int().min(1),
  nextWebhookId: z.int().min(1).optional(),
  nextDeliveryId: z.int().min(1).optional(),
});
// Version 2 end lines have no webhook counts: they carried none.
const CountsSchema = z.object({ pets: z.int(), keys: z.int(), orders: z.int(), idempotency: z.int(), webhooks: z.int().default(0), deliveries: z.int().default(0) });
const LineSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("pet"), record: PetRecordSchema }),
  z.object({ type: z.literal("key"), record: KeyRecordSchema }),
  z.object({ type: z.literal("order"), record: OrderRecordSchema }),
  z.object({ type: z.literal("idempotency"), record: IdempotencyRecordSchema }),
  // Secrets included: an endpoint restored without its secret could sign nothing (docs/security.md).
  z.object({ type: z.literal("webhook"), record: WebhookRecordSchema }),
  // The payload as stored, to the byte: the signature of every retry covers it.
  z.object({ type: z.literal("delivery"), record: DeliveryRecordSchema }),
  z.object({ type: z.literal("end"), counts: CountsSchema }),
]);

export type Counts = z.infer<typeof CountsSchema>;

/** How many records of each kind `data` holds: what the end line says and an import checks. */
export function countsOf(data: StoreData): Counts {
  const { pets, keys, orders, idempotency = [], webhooks = [], deliveries = [] } = data;
  return { pets: pets.length, keys: keys.length, orders: orders.length, idempotency: idempotency.length, webhooks: webhooks.length, deliveries: deliveries.length };
}

/** "2 pets, 3 keys, 1 orders", and the webhook endpoints and deliveries when there are any. */
export function describeCounts(counts: Counts): string {
  const webhooks = counts.webhooks + counts.deliveries > 0 ? `, ${counts.webhooks} webhook endpoints, ${counts.deliveries} deliveries` : "";
  return `${counts.pets} pets, ${counts.keys} keys, ${counts.orders} orders${webhooks}`;
}

function carriesWebhooks(data: StoreData): boolean {
  return data.nextWebhookId !== undefined || data.nextDeliveryId !== undefined || (data.webhooks?.length ?? 0) + (data.deliveries?.length ?? 0) > 0;
}

/** The export's lines, each with its newline: a generator, so a large store is written as it goes. */
export function* exportLines(data: StoreData): Generator<string> {
  const { nextPetId, nextOrderId, nextWebhookId, nextDeliveryId } = data;
  if (!carriesWebhooks(data)) {
    yield line({ format: EXPORT_FORMAT, version: KEYS_WITH_SCOPES_VERSION, nextPetId, nextOrderId });
    yield* recordLines(data);
    const { webhooks: _webhooks, deliveries: _deliveries, ...counts } = countsOf(data);
    yield line({ type: "end", counts });
    return;
  }
  yield line({ format: EXPORT_FORMAT, version: WEBHOOKS_VERSION, nextPetId, nextOrderId, nextWebhookId, nextDeliveryId });
  yield* recordLines(data);
  for (const record of data.webhooks ?? []) yield line({ type: "webhook", record });
  for (const record of data.deliveries ?? []) yield line({ type: "delivery", record });
  yield line({ type: "end", counts: countsOf(data) });
}

function* recordLines(data: StoreData): Generator<string> {
  for (const record of data.pets) yield line({ type: "pet", record });
  for (const record of data.keys) yield line({ type: "key", record: withoutEmptyFields(record) });
  for (const record of data.orders) yield line({ type: "order", record });
  for (const record of data.idempotency ?? []) yield line({ type: "idempotency", record });
}

// The key fields added after version 1 (expiry, rotation) are left out when null, one form for
// both engines: file -> PostgreSQL -> file gives back the same lines.
const OPTIONAL_KEY_FIELDS = new Set(["expiresAt", "previousHash", "previousHashUntil", "rotatedAt"]);

function withoutEmptyFields(record: object): object {
  return Object.fromEntries(Object.entries(record).filter(([name, value]) => value !== null || !OPTIONAL_KEY_FIELDS.has(name)));
}

function line(value: object): string {
  return `${JSON.stringify(value)}\n`;
}

/**
 * The store data of an export's text; throws naming the line when it is of another format or
 * version, malformed, or cut short (no end line, or counts that differ from its records).
 */
export function parseExport(text: string): StoreData {
  const lines = text.split("\n").filter((each) => each.trim() !== "");
  const header = HeaderSchema.safeParse(parseJson(lines[0] ?? "", 1));
  if (!header.success) throw new Error(`line 1: not a ${EXPORT_FORMAT} header (${firstIssue(header.error)})`);
  const { version } = header.data;
  if (version < OLDEST_EXPORT_VERSION || version > EXPORT_VERSION) {
    throw new Error(`the export has format version ${version}; this petstore reads versions ${OLDEST_EXPORT_VERSION} to ${EXPORT_VERSION}`);
  }
  const data: StoreData = { version: STORE_DATA_VERSION, nextPetId: header.data.nextPetId, pets: [], keys: [], nextOrderId: header.data.nextOrderId, orders: [], idempotency: [] };
  let end: Counts | undefined;
  lines.slice(1).forEach((text, index) => {
    const number = index + 2;
    if (end) throw new Error(`line ${number}: a record after the end line`);
    const parsed = LineSchema.safeParse(parseJson(text, number));
    if (!parsed.success) throw new Error(`line ${number}: ${firstIssue(parsed.error)}`);
    const entry = parsed.data;
    if (entry.type === "end") end = entry.counts;
    else if (entry.type === "pet") data.pets.push(entry.record);
    else if (entry.type === "key") data.keys.push(entry.record);
    else if (entry.type === "order") data.orders.push(entry.record);
    else if (entry.type === "idempotency") data.idempotency?.push(entry.record);
    else if (entry.type === "webhook") (data.webhooks ??= []).push(entry.record);
    else (data.deliveries ??= []).push(entry.record);
  });
  if (!end) throw new Error("the export has no end line: it was cut short");
  assertCounts(end, countsOf(data), "the end line says");
  if (data.idempotency?.length === 0) delete data.idempotency;
  return withWebhookCounters(data, header.data);
}

/**
 * The counters beside the records, as the db file keeps them (both or neither of a pair), after
 * checking that each delivery's endpoint is in the export: PostgreSQL would refuse it otherwise.
 */
function withWebhookCounters(data: StoreData, header: { nextWebhookId?: number; nextDeliveryId?: number }): StoreData {
  const endpoints = new Set((data.webhooks ?? []).map((webhook) => webhook.id));
  const orphan = (data.deliveries ?? []).find((delivery) => !endpoints.has(delivery.webhookId));
  if (orphan) throw new Error(`delivery ${orphan.id} is to webhook endpoint ${orphan.webhookId}, which the export does not hold`);
  const { nextWebhookId, nextDeliveryId } = header;
  if (nextWebhookId !== undefined || data.webhooks) Object.assign(data, { nextWebhookId: nextWebhookId ?? 1, webhooks: data.webhooks ?? [] });
  if (nextDeliveryId !== undefined || data.deliveries) Object.assign(data, { nextDeliveryId: nextDeliveryId ?? 1, deliveries: data.deliveries ?? [] });
  return data;
}

/** Throws naming each kind whose count differs. */
export function assertCounts(expected: Counts, actual: Counts, what: string): void {
  const differ = (Object.keys(expected) as (keyof Counts)[]).filter((kind) => expected[kind] !== actual[kind]);
  if (differ.length > 0) {
    throw new Error(`${what} ${differ.map((kind) => `${expected[kind]} ${kind}`).join(", ")}, found ${differ.map((kind) => `${actual[kind]} ${kind}`).join(", ")}`);
  }
}

function parseJson(text: string, number: number): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`line ${number}: not JSON`);
  }
}
