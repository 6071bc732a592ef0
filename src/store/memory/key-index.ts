import type { KeyRecord } from "../key-store.js";
import { freezeKeyRecord } from "./records.js";

/**
 * Committed keys by hash (the per-request lookup) and by id (admin operations).
 * Records are frozen and replaced, never mutated, so a caller can keep one safely.
 */
export class KeyIndex {
  readonly #byId = new Map<string, KeyRecord>();
  readonly #byHash = new Map<string, KeyRecord>();
  #touches = 0;
  #savedTouches = 0;

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

  /** Every record as it will be once `revocations` apply, followed by `added`. */
  concat(revocations: ReadonlyMap<string, string>, added: readonly KeyRecord[]): KeyRecord[] {
    const revoked = new Map(this.#revoked(revocations).map((record) => [record.id, record]));
    return this.all()
      .map((record) => revoked.get(record.id) ?? record)
      .concat(added);
  }

  touch(id: string, at: string): void {
    const record = this.#byId.get(id);
    if (!record) return;
    this.#put(Object.freeze({ ...record, lastUsedAt: at }));
    this.#touches++;
  }

  /** A mark of the touches so far: pass it to `saved` once a write that included them is durable. */
  get touchMark(): number {
    return this.#touches;
  }

  saved(mark: number): void {
    this.#savedTouches = Math.max(this.#savedTouches, mark);
  }

  /** True when some lastUsedAt is only in memory. */
  get dirty(): boolean {
    return this.#touches !== this.#savedTouches;
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
  }
}
