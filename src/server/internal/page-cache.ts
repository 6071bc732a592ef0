/**
 * Answers kept while what they were made from has not changed: each entry carries the store's
 * version it was built at, and one read at another version is a miss. Bounded: past `capacity`
 * entries the oldest goes first (a Map keeps insertion order), so a client walking thousands of
 * distinct URLs costs at most `capacity` answers of memory.
 */
export class PageCache<T> {
  readonly #entries = new Map<string, { version: number | string; value: T }>();

  constructor(readonly capacity = 256) {}

  get(key: string, version: number | string): T | undefined {
    const entry = this.#entries.get(key);
    return entry?.version === version ? entry.value : undefined;
  }

  set(key: string, version: number | string, value: T): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { version, value });
  }

  get size(): number {
    return this.#entries.size;
  }
}
