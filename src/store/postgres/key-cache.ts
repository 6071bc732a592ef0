import type { KeyRecord } from "../key-store.js";

/** Enough for every key a busy installation uses; beyond it the oldest entries go. */
const CAPACITY = 10_000;

/**
 * Key records by secret hash, in this instance's memory, so a request does not cost a round
 * trip to PostgreSQL. It is only as good as the invalidations it receives (the `api_keys`
 * trigger's NOTIFY, see key-changes.ts): while they may be missed (no listening connection),
 * nothing is served from it and nothing is put in it.
 *
 * A lookup that began before an invalidation must not put back what the invalidation removed:
 * every invalidation moves `generation` on, and `put` is refused for a lookup begun before it.
 */
export class KeyCache {
  readonly #byHash = new Map<string, KeyRecord>();
  #live = false;
  #generation = 0;

  get generation(): number {
    return this.#generation;
  }

  get(hash: string): KeyRecord | undefined {
    return this.#live ? this.#byHash.get(hash) : undefined;
  }

  /** Keeps what a lookup begun at `generation` found, unless something was invalidated since. */
  put(hash: string, record: KeyRecord, generation: number): void {
    if (!this.#live || generation !== this.#generation) return;
    if (this.#byHash.size >= CAPACITY) this.#byHash.delete(this.#byHash.keys().next().value as string);
    this.#byHash.set(hash, record);
  }

  /** The key changed (revoked, rotated, its plan...): every hash that found it is forgotten. */
  forget(id: string): void {
    this.#generation++;
    for (const [hash, record] of this.#byHash) if (record.id === id) this.#byHash.delete(hash);
  }

  /** Everything may have changed (a TRUNCATE, an import). */
  forgetAll(): void {
    this.#generation++;
    this.#byHash.clear();
  }

  /** Invalidations are being received again: caching may start, from empty. */
  trust(): void {
    this.forgetAll();
    this.#live = true;
  }

  /** Invalidations may be missed from now on: serve nothing, keep nothing. */
  distrust(): void {
    this.forgetAll();
    this.#live = false;
  }

  get size(): number {
    return this.#byHash.size;
  }
}
