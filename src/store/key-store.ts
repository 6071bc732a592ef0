import type { KeyLimits, Plan } from "../contract/values.js";
import type { CreateOptions } from "./idempotency-store.js";

/** A stored API key: the secret itself is never kept, only its SHA-256 hash (hex). */
export interface KeyRecord {
  id: string;
  hash: string;
  prefix: string;
  plan: Plan;
  name: string | null;
  admin: boolean;
  /** Own limits (enterprise and admin keys); null means the plan's current limits. */
  limits: KeyLimits | null;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export interface KeyStore {
  /** Resolves once the key is durable; `options.idempotency` as for PetStore.create. */
  create(record: KeyRecord, options?: CreateOptions<KeyRecord>): Promise<KeyRecord>;
  /** The hot path of every request: a map lookup, never a scan. Revoked keys are returned too. */
  findByHash(hash: string): Promise<KeyRecord | undefined>;
  list(): Promise<KeyRecord[]>;
  /** Marks the key revoked (durably); undefined when no key has this id. Idempotent. */
  revoke(id: string, at: Date): Promise<KeyRecord | undefined>;
  /** Records use in memory only; persisted with the next write or at close. */
  touch(id: string, at: Date): void;
  hasAdminKey(): Promise<boolean>;
  /**
   * Creates `record` (an admin key) only when no unrevoked admin key exists, atomically: of
   * several servers starting at once on one database, exactly one creates it. True when created.
   */
  createFirstAdmin(record: KeyRecord): Promise<boolean>;
}
