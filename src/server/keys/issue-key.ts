import type { KeyLimits, Plan } from "../../contract/values.js";
import type { Scope } from "../../contract/scopes.js";
import type { KeyRecord } from "../../store/key-store.js";
import { displayPrefix, generateApiKey, generateKeyId, hashApiKey } from "./secrets.js";

export interface KeyFields {
  plan: Plan;
  name: string | null;
  admin: boolean;
  scopes: readonly Scope[];
  limits: KeyLimits | null;
  /** ISO instant; absent or null: the key never expires. */
  expiresAt?: string | null;
}

/** The stored form of a secret: its hash and display prefix, never the secret itself. */
export function keyRecordFor(secret: string, fields: KeyFields, now: () => number, id = generateKeyId()): KeyRecord {
  return {
    id,
    hash: hashApiKey(secret),
    prefix: displayPrefix(secret),
    ...fields,
    createdAt: new Date(now()).toISOString(),
    revokedAt: null,
    lastUsedAt: null,
  };
}

/** A new key: the secret (to show once) and the record to store. */
export function issueKey(fields: KeyFields, now: () => number): { secret: string; record: KeyRecord } {
  const secret = generateApiKey();
  return { secret, record: keyRecordFor(secret, fields, now) };
}
