import { setImmediate as nextTurn } from "node:timers/promises";
import { messageOf } from "../../support/error-text.js";
import { StorageUnavailableError } from "../../support/storage-unavailable.js";
import { batchEvents } from "./batch-events.js";
import { emptyBatch, type Batch, type StoreData, type StoreState } from "./store-state.js";

/** One batch to make durable, with what either a journal line or a whole-file rewrite needs. */
export interface Commit {
  batch: Batch;
  /** lastUsedAt values only in memory so far: they ride along with the batch. */
  touches: ReadonlyMap<string, string>;
  /** The id counter, which runs ahead of the committed pets. */
  nextPetId: number;
  /** The order id counter, likewise. */
  nextOrderId: number;
  /** The webhook endpoint id counter, likewise. */
  nextWebhookId: number;
  nextDeliveryId: number;
  /** The id of the batch's last event: persisted so that ids continue after a restart. */
  lastEventId: number;
  /** The whole data as it will be once the batch applies; call it before the persist resolves. */
  snapshot(): StoreData;
}

/** Makes one commit durable; rejects when it could not, and then nothing of it may count as written. */
export type Persist = (commit: Commit) => Promise<void>;

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
    const state = this.#state;
    const touches = state.keys.unsavedTouches();
    // Numbered here, one batch at a time, so event ids follow the durable order; a failed batch uses none.
    const events = batchEvents(batch, state.events.last, new Date(state.now()).toISOString());
    const lastEventId = events.at(-1)?.id ?? state.events.last;
    // The deliveries these events cause ride on the same line; a failed batch's ids are skipped.
    state.addDeliveries(batch, events);
    const { nextPetId, nextOrderId, nextWebhookId, nextDeliveryId } = state;
    try {
      await this.#persist({ batch, touches, nextPetId, nextOrderId, nextWebhookId, nextDeliveryId, lastEventId, snapshot: () => state.snapshot(batch, lastEventId) });
    } catch (error) {
      const failure = this.#unavailable(error);
      for (const waiter of waiters) waiter.reject(failure);
      return;
    }
    state.apply(batch);
    state.keys.saved(touches);
    // Only now, after durable and in commit order, do subscribers hear of them.
    state.events.publish(events);
    for (const waiter of waiters) waiter.resolve();
  }

  #unavailable(error: unknown): StorageUnavailableError {
    if (error instanceof StorageUnavailableError) return error;
    return new StorageUnavailableError(this.#name, messageOf(error));
  }
}
