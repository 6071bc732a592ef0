// The store's half of idempotent creates (draft-ietf-httpapi-idempotency-key-header): a create
// given `{ idempotency }` writes the record of its answer in the same durable step as what it
// creates (the same journal line, the same PostgreSQL transaction), so a crash can never keep one
// without the other. What an answer looks like, and its encryption, belong to the server.
import { IDEMPOTENCY_TTL_MS } from "../contract/limits.js";

/** The stored answer to a create made with an Idempotency-Key. */
export interface IdempotencyRecord {
  /** Opaque and fixed-size: a digest of the caller's key id and the Idempotency-Key. */
  id: string;
  /** A digest of the request (method, path, parsed body): a retry must match it. */
  fingerprint: string;
  /** ISO 8601; the record is honoured for IDEMPOTENCY_TTL_MS from then on. */
  createdAt: string;
  /** The answer, sealed by the server (it may hold a secret: the store sees ciphertext only). */
  answer: string;
}

/**
 * What a create stores beside its record. `seal` turns the created record into the stored
 * answer; the store calls it once the record's id is known and before the durable step.
 * @example await pets.create(input, { idempotency: { id, fingerprint, createdAt, seal: (pet) => sealed(pet) } })
 */
export interface IdempotentWrite<T> {
  id: string;
  fingerprint: string;
  createdAt: string;
  seal(created: T): string;
}

/** The options of every create that can be made idempotent (pets, keys, and later orders). */
export interface CreateOptions<T> {
  idempotency?: IdempotentWrite<T>;
}

/**
 * A create whose idempotency id already has a live record (another instance won the race): nothing
 * was created; look the record up again and answer from it.
 */
export class IdempotencyKeyTakenError extends Error {
  constructor(readonly id: string) {
    super("this idempotency key already has a stored answer");
  }
}

export interface IdempotencyStore {
  /** The record for `id` still honoured at `now` (ms), or undefined; an expired one is forgotten. */
  find(id: string, now: number): Promise<IdempotencyRecord | undefined>;
}

/** True while `record` is honoured: for IDEMPOTENCY_TTL_MS after its creation. */
export function isLive(record: Pick<IdempotencyRecord, "createdAt">, now: number): boolean {
  return Date.parse(record.createdAt) + IDEMPOTENCY_TTL_MS > now;
}

/** The record a create writes, its answer sealed from what was created. */
export function recordOf<T>(write: IdempotentWrite<T>, created: T): IdempotencyRecord {
  return { id: write.id, fingerprint: write.fingerprint, createdAt: write.createdAt, answer: write.seal(created) };
}
