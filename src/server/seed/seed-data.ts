// A seed document turned into the store's data: checked record by record, so that a bad one is
// named by its index and field before anything listens.
import { canonicalScopes, UNSCOPED_KEY_SCOPES } from "../../contract/scopes.js";
import type * as z from "zod";
import { DEFAULT_PET_STATUS } from "../../contract/constants.js";
import { summarizeIssue } from "../../contract/validation.js";
import type { KeyRecord } from "../../store/key-store.js";
import type { OrderRecord } from "../../store/indexed/order-records.js";
import type { PetRecord } from "../../store/indexed/records.js";
import type { WebhookRecord } from "../../store/webhook-store.js";
import { emptyStoreData, type StoreData } from "../../store/indexed/store-state.js";
import { keyRecordFor } from "../keys/issue-key.js";
import { generateKeyId } from "../keys/secrets.js";
import {
  SEED_KEY_FIELDS,
  SeedDocumentSchema,
  SeedKeyFieldsSchema,
  SeedKeyIdentitySchema,
  SeedOrderSchema,
  SeedPetSchema,
  SeedWebhookSchema,
  type SeedKey,
  type SeedOrder,
  type SeedPet,
  type SeedWebhook,
} from "./seed-schema.js";

/** A seed that cannot be used; the message names the record (`pets[3].categoryId: ...`). */
export class SeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SeedError";
  }
}

export interface Seed {
  data: StoreData;
  /** The secret of the seed's first admin key, when it has one: what --write-env hands out. */
  adminSecret?: string;
  /** The endpoints' URLs in the seed's order, for the address check, which depends on the server's settings. */
  webhookUrls?: string[];
}

/** Checks `json` (a parsed seed file) and returns the store's data; throws SeedError naming the first bad field. */
export function parseSeed(json: unknown, now: () => number): Seed {
  const document = checked(SeedDocumentSchema, json, "");
  const pets = withIds((document.pets ?? []).map((pet, index) => checked(SeedPetSchema, pet, `pets[${index}]`)), "pets");
  const petIds = new Set(pets.map((pet) => pet.id));
  const orders = withIds((document.orders ?? []).map((order, index) => checkedOrder(order, index, petIds)), "orders");
  const keys = (document.keys ?? []).map((key, index) => checkedKey(key, index));
  assertUniqueSecrets(keys);
  const webhooks = withIds((document.webhooks ?? []).map((webhook, index) => checked(SeedWebhookSchema, webhook, `webhooks[${index}]`)), "webhooks");
  const at = new Date(now()).toISOString();
  const data: StoreData = {
    ...emptyStoreData(),
    nextPetId: highest(pets) + 1,
    pets: pets.map(toPetRecord).sort((a, b) => a.id - b.id),
    nextOrderId: highest(orders) + 1,
    orders: orders.map((order) => toOrderRecord(order, at)).sort((a, b) => a.id - b.id),
    keys: keys.map((key) => toKeyRecord(key, now)),
    ...(webhooks.length > 0 ? { nextWebhookId: highest(webhooks) + 1, webhooks: webhooks.map((webhook) => toWebhookRecord(webhook, at)).sort((a, b) => a.id - b.id) } : {}),
  };
  const webhookUrls = webhooks.length > 0 ? { webhookUrls: webhooks.map((webhook) => webhook.url) } : {};
  return { data, adminSecret: keys.find((key) => key.admin)?.key, ...webhookUrls };
}

function checked<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const summary = summarizeIssue(result.error);
  const field = summary?.kind === "rule" || summary?.kind === "unknown_field" ? summary.field : "";
  const rule = !summary ? "is invalid" : summary.kind === "not_an_object" ? "must be a JSON object" : summary.kind === "unknown_field" ? "unknown field" : summary.rule;
  const name = [where, field].filter(Boolean).join(".") || "the seed";
  throw new SeedError(`${name}: ${rule}`);
}

function checkedOrder(value: unknown, index: number, petIds: Set<number | undefined>): SeedOrder {
  const order = checked(SeedOrderSchema, value, `orders[${index}]`);
  if (!petIds.has(order.petId)) throw new SeedError(`orders[${index}].petId: no pet of the seed has id ${order.petId}`);
  return order;
}

function checkedKey(value: unknown, index: number): SeedKey {
  const where = `keys[${index}]`;
  const identity = checked(SeedKeyIdentitySchema, value, where);
  const rest = Object.fromEntries(Object.entries(value as object).filter(([field]) => !(SEED_KEY_FIELDS as readonly string[]).includes(field)));
  return { ...identity, ...checked(SeedKeyFieldsSchema, rest, where) };
}

/** Records without an id are numbered after the highest one given, in their order; a repeated id is refused. */
function withIds<T extends { id?: number }>(records: T[], what: string): Array<T & { id: number }> {
  const seen = new Set<number>();
  records.forEach((record, index) => {
    if (record.id === undefined) return;
    if (seen.has(record.id)) throw new SeedError(`${what}[${index}].id: ${record.id} is used by an earlier record`);
    seen.add(record.id);
  });
  let next = Math.max(0, ...seen) + 1;
  return records.map((record) => ({ ...record, id: record.id ?? next++ }));
}

function assertUniqueSecrets(keys: SeedKey[]): void {
  const seen = new Set<string>();
  keys.forEach((key, index) => {
    if (seen.has(key.key)) throw new SeedError(`keys[${index}].key: the same secret as an earlier key`);
    seen.add(key.key);
  });
  const ids = new Set<string>();
  keys.forEach((key, index) => {
    if (key.id === undefined) return;
    if (ids.has(key.id)) throw new SeedError(`keys[${index}].id: ${key.id} is used by an earlier key`);
    ids.add(key.id);
  });
}

const highest = (records: Array<{ id: number }>) => records.reduce((max, record) => Math.max(max, record.id), 0);

function toPetRecord(pet: SeedPet & { id: number }): PetRecord {
  return { id: pet.id, name: pet.name, categoryId: pet.categoryId, status: pet.status ?? DEFAULT_PET_STATUS };
}

function toOrderRecord(order: SeedOrder & { id: number }, at: string): OrderRecord {
  const createdAt = order.createdAt ?? at;
  return { id: order.id, petId: order.petId, status: order.status ?? "placed", createdAt, updatedAt: order.updatedAt ?? createdAt };
}

function toKeyRecord(key: SeedKey, now: () => number): KeyRecord {
  const limits = key.perMinute !== undefined && key.perDay !== undefined ? { perMinute: key.perMinute, perDay: key.perDay } : null;
  // As POST /v1/keys: no `scopes`, all five; an admin key always holds every one.
  const scopes = canonicalScopes(key.admin || key.scopes === undefined ? UNSCOPED_KEY_SCOPES : key.scopes);
  const fields = { plan: key.plan, name: key.name ?? null, admin: key.admin ?? false, scopes, limits, expiresAt: key.expiresAt ?? null };
  return keyRecordFor(key.key, fields, now, key.id ?? generateKeyId());
}

function toWebhookRecord(webhook: SeedWebhook & { id: number }, at: string): WebhookRecord {
  const { id, url, secret } = webhook;
  // As POST /v1/webhooks: a type listed twice is kept once.
  const types = [...new Set(webhook.types ?? [])];
  return { id, url, types, description: webhook.description ?? null, enabled: webhook.enabled ?? true, secret, previousSecret: null, previousSecretUntil: null, createdAt: at, updatedAt: at };
}
