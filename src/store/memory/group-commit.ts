import { setImmediate as nextTurn } from "node:timers/promises";
import { StorageUnavailableError } from "../errors.js";
import { emptyBatch, type Batch, type StoreData, type StoreState } from "./store-state.js";

/** Makes one snapshot durable; it calls `snapshot` once, synchronously, before its first await. */
export type Persist = (snapshot: () => StoreData) => Promise<void>;

interface Pending {
  batch: Batch;
  waiters: { resolve: () => void; reject: (error: unknown) => void }[];
}

/**
 * One write for every change staged while the previous write was running. Each caller's
 * promise settles when its own batch is durable (or failed); the changes become visible
 * in `state` only once durable. A failed batch is dropped, and the next one is written
 * from the then-current state.
 */
export class GroupCommit {
  readonly #state: StoreState;
  readonly #persist: Persist;
  readonly #name: string;
  #next: Pending | undefined;
  #running: Promise<void> | undefined;
  #closed = false;

  /** `name` (the db file) is what errors name. */
  constructor(state: StoreState, persist: Persist, name: string) {
    this.#state = state;
    this.#persist = persist;
    this.#name = name;
  }

  /** Adds changes to the next batch; resolves once that batch is durable. */
  stage(fill: (batch: Batch) => void): Promise<void> {
    if (this.#closed) return Promise.reject(new StorageUnavailableError(this.#name, "the store is closed"));
    return this.#enqueue(fill);
  }

  /** Writes the current state even if nothing is staged (pending touches), also once closed. */
  flush(): Promise<void> {
    return this.#enqueue(() => {});
  }

  /** Refuses new changes; `idle()` then waits for the ones already staged. */
  close(): void {
    this.#closed = true;
  }

  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  #enqueue(fill: (batch: Batch) => void): Promise<void> {
    const pending = (this.#next ??= { batch: emptyBatch(), waiters: [] });
    fill(pending.batch);
    const done = new Promise<void>((resolve, reject) => pending.waiters.push({ resolve, reject }));
    this.#running ??= this.#drain();
    return done;
  }

  async #drain(): Promise<void> {
    // Callers that arrive in the same turn of the event loop share the first write too.
    await nextTurn();
    for (let pending = this.#next; pending; pending = this.#next) {
      this.#next = undefined;
      await this.#commit(pending);
    }
    this.#running = undefined;
  }

  async #commit({ batch, waiters }: Pending): Promise<void> {
    const touchMark = this.#state.keys.touchMark;
    try {
      await this.#persist(() => this.#state.snapshot(batch));
    } catch (error) {
      const failure = this.#unavailable(error);
      for (const waiter of waiters) waiter.reject(failure);
      return;
    }
    this.#state.apply(batch);
    this.#state.keys.saved(touchMark);
    for (const waiter of waiters) waiter.resolve();
  }

  #unavailable(error: unknown): StorageUnavailableError {
    if (error instanceof StorageUnavailableError) return error;
    return new StorageUnavailableError(this.#name, error instanceof Error ? error.message : String(error));
  }
}
