// Rows as pg returns them (bigint as a string, timestamptz as a Date) and the records we hand out.
import type { Pet, PetStatus, Plan } from "../../contract/values.js";
import { canonicalScopes, type Scope } from "../../contract/scopes.js";
import type { KeyRecord } from "../key-store.js";
import type { StoredPet } from "../pet-store.js";
import { freezeKeyRecord } from "../indexed/records.js";

export interface PetRow {
  id: string;
  name: string;
  category_id: string;
  status: PetStatus;
  revision: number;
}

export interface KeyRow {
  id: string;
  hash: string;
  prefix: string;
  plan: Plan;
  name: string | null;
  admin: boolean;
  /** Only known scopes: the column's CHECK refuses others. */
  scopes: Scope[];
  per_minute: string | null;
  per_day: string | null;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
  expires_at: Date | null;
  previous_hash: string | null;
  previous_hash_until: Date | null;
  rotated_at: Date | null;
}

export const PET_COLUMNS = "id, name, category_id, status, revision";
export const KEY_COLUMNS =
  "id, hash, prefix, plan, name, admin, scopes, per_minute, per_day, created_at, revoked_at, last_used_at, " +
  "expires_at, previous_hash, previous_hash_until, rotated_at";
/** $1, $2, ... one per column of KEY_COLUMNS, for an INSERT of keyValues(record). */
export const KEY_PLACEHOLDERS = KEY_COLUMNS.split(",").map((_, index) => `$${index + 1}`).join(", ");

export function toPet(row: PetRow): Pet {
  return Object.freeze({ id: safeInteger(row.id), name: row.name, categoryId: safeInteger(row.category_id), status: row.status });
}

export function toStoredPet(row: PetRow): StoredPet {
  return { pet: toPet(row), revision: row.revision };
}

export function toKeyRecord(row: KeyRow): KeyRecord {
  const limits =
    row.per_minute === null || row.per_day === null
      ? null
      : { perMinute: safeInteger(row.per_minute), perDay: safeInteger(row.per_day) };
  return freezeKeyRecord({
    id: row.id,
    hash: row.hash,
    prefix: row.prefix,
    plan: row.plan,
    name: row.name,
    admin: row.admin,
    scopes: canonicalScopes(row.scopes),
    limits,
    createdAt: row.created_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    expiresAt: row.expires_at?.toISOString() ?? null,
    previousHash: row.previous_hash,
    previousHashUntil: row.previous_hash_until?.toISOString() ?? null,
    rotatedAt: row.rotated_at?.toISOString() ?? null,
  });
}

/** The values of a key's columns, in KEY_COLUMNS order. */
export function keyValues(record: KeyRecord): unknown[] {
  return [
    record.id,
    record.hash,
    record.prefix,
    record.plan,
    record.name,
    record.admin,
    record.scopes,
    record.limits?.perMinute ?? null,
    record.limits?.perDay ?? null,
    record.createdAt,
    record.revokedAt,
    record.lastUsedAt,
    record.expiresAt ?? null,
    record.previousHash ?? null,
    record.previousHashUntil ?? null,
    record.rotatedAt ?? null,
  ];
}

// The API caps ids and categories at 2^53-1 and the schema checks it, so this only trips on
// rows written by something else.
function safeInteger(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`${text} is beyond JavaScript's safe integer range`);
  return value;
}
