import type { KeyLimits, Plan } from "../contract/values.js";
import type { Scope } from "../contract/scopes.js";
import type { CreateOptions } from "./idempotency-store.js";

/** A stored API key: the secret itself is never kept, only its SHA-256 hash (hex). */
export interface KeyRecord {
  id: string;
  hash: string;
  prefix: string;
  plan: Plan;
  name: string | null;
  admin: boolean;
  /**
   * What the key may do, in canonical order (canonicalScopes). Stored records from before scopes
   * have none and load with UNSCOPED_KEY_SCOPES. Admin keys hold them all, and the admin operations.
   */
  scopes: readonly Scope[];
  /** Own limits (enterprise and admin keys); null means the plan's current limits. */
  limits: KeyLimits | null;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  /** When the key stops working; absent or null: never. Optional so files written before expiry load as is. */
  expiresAt?: string | null;
  /** The secret replaced by the last rotation, still valid until previousHashUntil (the grace period). */
  previousHash?: string | null;
  previousHashUntil?: string | null;
  rotatedAt?: string | null;
}

/** What a rotation changes: the new secret's hash and prefix, and how long the old one still works. */
export interface Rotation {
  hash: string;
  prefix: string;
  /** ISO instant at which the replaced secret stops working. */
  graceUntil: string;
  at: string;
}

export interface KeyStore {
  /** Resolves once the key is durable; `options.idempotency` as for PetStore.create. */
  create(record: KeyRecord, options?: CreateOptions<KeyRecord>): Promise<KeyRecord>;
  /** The hot path of every request: a map lookup, never a scan. Revoked keys are returned too. */
  findByHash(hash: string): Promise<KeyRecord | undefined>;
  /**
   * findByHash when this process already knows the answer: the record, null when no key has
   * this hash, undefined when only findByHash can tell (a key not cached by this instance).
   */
  findByHashSync?(hash: string): KeyRecord | null | undefined;
  list(): Promise<KeyRecord[]>;
  /** Marks the key revoked (durably); undefined when no key has this id. Idempotent. */
  revoke(id: string, at: Date): Promise<KeyRecord | undefined>;
  /**
   * Gives the key a new secret (durably), keeping id, plan, scopes and counters; the old secret is found
   * by findByHash until `rotation.graceUntil`. Undefined when no key has this id; a revoked key
   * is returned unchanged.
   */
  rotate(id: string, rotation: Rotation): Promise<KeyRecord | undefined>;
  /** Records use in memory only; persisted with the next write or at close. */
  touch(id: string, at: Date): void;
  hasAdminKey(): Promise<boolean>;
  /**
   * Creates `record` (an admin key) only when no unrevoked admin key exists, atomically: of
   * several servers starting at once on one database, exactly one creates it. True when created.
   */
  createFirstAdmin(record: KeyRecord): Promise<boolean>;
}
