/** One open stream as the registry sees it: it can be told to end, with a last frame to send. */
export interface OpenStream {
  end(last?: string): void;
}

/**
 * The open event streams of this process: at most `perKey` per key, and all of them ended at
 * once on a graceful stop (a stream never ends by itself, so the listener would wait on it).
 */
export class StreamRegistry {
  readonly #byKey = new Map<string, Set<OpenStream>>();
  readonly #perKey: number;
  #stopping = false;

  constructor(perKey: number) {
    this.#perKey = perKey;
  }

  /** False when the key already holds its maximum (or the server is stopping). */
  tryAdd(keyId: string, stream: OpenStream): boolean {
    const held = this.#byKey.get(keyId) ?? new Set();
    if (this.#stopping || held.size >= this.#perKey) return false;
    held.add(stream);
    this.#byKey.set(keyId, held);
    return true;
  }

  remove(keyId: string, stream: OpenStream): void {
    const held = this.#byKey.get(keyId);
    held?.delete(stream);
    if (held?.size === 0) this.#byKey.delete(keyId);
  }

  get size(): number {
    let count = 0;
    for (const held of this.#byKey.values()) count += held.size;
    return count;
  }

  /** Ends every stream (each sending `last` first, when given) and refuses new ones: the first step of a graceful stop or a reset. */
  endAll(last?: string): void {
    this.#stopping = true;
    for (const held of [...this.#byKey.values()]) for (const stream of [...held]) stream.end(last);
  }
}
