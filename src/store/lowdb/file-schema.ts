import * as z from "zod";
import { firstIssue, IdempotencyRecordSchema, KeyRecordSchema, PetRecordSchema } from "../indexed/records.js";
import { OrderRecordSchema } from "../indexed/order-records.js";
import { WebhookRecordSchema } from "../indexed/webhook-records.js";
import { DeliveryRecordSchema } from "../indexed/delivery-table.js";
import { STORE_DATA_VERSION, type StoreData } from "../indexed/store-state.js";

const StoreFileSchema = z.object({
  // Older files read as they are (every field added since is optional); the open then rewrites
  // them as the current version after keeping a copy (upgrade-file.ts). A newer version is refused.
  version: z.union([z.literal(1), z.literal(2), z.literal(STORE_DATA_VERSION)]).transform((): typeof STORE_DATA_VERSION => STORE_DATA_VERSION),
  nextPetId: z.int().min(1),
  pets: z.array(PetRecordSchema),
  keys: z.array(KeyRecordSchema),
  // Files written before orders existed have neither.
  nextOrderId: z.int().min(1).default(1),
  orders: z.array(OrderRecordSchema).default([]),
  // Files written before idempotent creates have none.
  idempotency: z.array(IdempotencyRecordSchema).optional(),
  // Files written before events have none.
  lastEventId: z.int().min(1).optional(),
  // Files written before webhooks have neither.
  nextWebhookId: z.int().min(1).optional(),
  webhooks: z.array(WebhookRecordSchema).optional(),
  nextDeliveryId: z.int().min(1).optional(),
  deliveries: z.array(DeliveryRecordSchema).optional(),
});

/** The db file was written by a newer petstore: a format version this one does not know. */
export class NewerStoreFileError extends Error {
  constructor(readonly version: number) {
    super(`it was written by a newer petstore (format version ${version}); this petstore reads format versions 1 to ${STORE_DATA_VERSION}`);
    this.name = "NewerStoreFileError";
  }
}

/** Checks the parsed db file and returns its data, pets sorted by id; throws naming the first problem. */
export function parseStoreFile(json: unknown): StoreData {
  checkFormatVersion(json);
  const result = StoreFileSchema.safeParse(json);
  if (!result.success) throw new Error(firstIssue(result.error));
  const data = result.data;
  data.pets.sort((a, b) => a.id - b.id);
  assertUnique(data.pets.map((pet) => pet.id), (id) => `pets: duplicate id ${id}`);
  data.orders.sort((a, b) => a.id - b.id);
  assertUnique(data.orders.map((order) => order.id), (id) => `orders: duplicate id ${id}`);
  assertUnique(data.keys.map((key) => key.id), (id) => `keys: duplicate id ${JSON.stringify(id)}`);
  // The hash stays out of the message: it identifies a secret.
  assertUnique(data.keys.map((key) => key.hash), () => "keys: two keys have the same hash");
  return data;
}

function assertUnique<T>(values: readonly T[], describe: (value: T) => string): void {
  const seen = new Set<T>();
  for (const value of values) {
    if (seen.has(value)) throw new Error(describe(value));
    seen.add(value);
  }
}

/** Whether this is a petstore db file at all, and of a version this petstore reads, before its fields are checked. */
function checkFormatVersion(json: unknown): void {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new Error(`it holds JSON, but ${Array.isArray(json) ? "an array" : json === null ? "null" : `a ${typeof json}`} where a petstore database is an object`);
  }
  const version = (json as { version?: unknown }).version;
  if (version === undefined) throw new Error('it holds a JSON object without a "version": not a petstore database');
  if (typeof version === "number" && Number.isSafeInteger(version) && version > STORE_DATA_VERSION) throw new NewerStoreFileError(version);
  if (version !== 1 && version !== 2 && version !== STORE_DATA_VERSION) {
    const shown = JSON.stringify(version).slice(0, 40);
    throw new Error(`its "version" is ${shown}, not a format version petstore writes (1 to ${STORE_DATA_VERSION})`);
  }
}
