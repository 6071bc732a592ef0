import type { KeyRecord } from "../key-store.js";
import { freezeKeyRecord } from "./records.js";

/**
 * Committed keys by hash (the per-request lookup) and by id (admin operations).
 * Records are frozen and replaced, never mutated, so a caller can keep one safely.
 */
export class KeyIndex {
  readonly #byId = new Map<string, KeyRecord>();
  readonly #byHash = new Map<string, KeyRecord>();
  // Key id to the lastUsedAt that is only in memory so far.
  readonly #unsavedTouches = new Map<string, string>();

  add(records: readonly KeyRecord[]): void {
    for (const record of records) this.#put(freezeKeyRecord(record));
  }

  byId(id: string): KeyRecord | undefined {
    return this.#byId.get(id);
  }

  byHash(hash: string): KeyRecord | undefined {
    return this.#byHash.get(hash);
  }

  all(): KeyRecord[] {
    return [...this.#byId.values()];
  }

  /** Marks the keys revoked at `at` unless they already are; unknown ids are skipped. */
  revoke(revocations: ReadonlyMap<string, string>): void {
    for (const record of this.#revoked(revocations)) this.#put(record);
  }

  /**
   * Replaces keys by their rotated records. The secret before the previous one is forgotten:
   * only the current and the previous (in its grace period) are looked up.
   */
  rotate(rotated: Iterable<KeyRecord>): void {
    for (const record of rotated) {
      const held = this.#byId.get(record.id);
      if (held?.previousHash) this.#byHash.delete(held.previousHash);
      this.#put(freezeKeyRecord(record));
    }
  }

  /** Every record as it will be once `revocations` and `rotations` apply, followed by `added`. */
  concat(revocations: ReadonlyMap<string, string>, added: readonly KeyRecord[], rotations: ReadonlyMap<string, KeyRecord> = new Map()): KeyRecord[] {
    const revoked = new Map(this.#revoked(revocations).map((record) => [record.id, record]));
    return this.all()
      .map((record) => rotations.get(record.id) ?? record)
      .map((record) => withRevocation(record, revoked.get(record.id)))
      .concat(added);
  }

  touch(id: string, at: string): void {
    const record = this.#byId.get(id);
    if (!record) return;
    this.#put(Object.freeze({ ...record, lastUsedAt: at }));
    this.#unsavedTouches.set(id, at);
  }

  /** The lastUsedAt values only in memory: pass them to `saved` once a write that included them is durable. */
  unsavedTouches(): ReadonlyMap<string, string> {
    return new Map(this.#unsavedTouches);
  }

  /** Forgets the touches that a durable write included, unless the key was touched again since. */
  saved(touches: ReadonlyMap<string, string>): void {
    for (const [id, at] of touches) {
      if (this.#unsavedTouches.get(id) === at) this.#unsavedTouches.delete(id);
    }
  }

  /** True when some lastUsedAt is only in memory. */
  get dirty(): boolean {
    return this.#unsavedTouches.size > 0;
  }

  #revoked(revocations: ReadonlyMap<string, string>): KeyRecord[] {
    const records: KeyRecord[] = [];
    for (const [id, at] of revocations) {
      const record = this.#byId.get(id);
      if (record && record.revokedAt === null) records.push(Object.freeze({ ...record, revokedAt: at }));
    }
    return records;
  }

  #put(record: KeyRecord): void {
    this.#byId.set(record.id, record);
    this.#byHash.set(record.hash, record);
    if (record.previousHash) this.#byHash.set(record.previousHash, record);
  }
}

function withRevocation(record: KeyRecord, revoked: KeyRecord | undefined): KeyRecord {
  return revoked ? { ...record, revokedAt: revoked.revokedAt } : record;
}
