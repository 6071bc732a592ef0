import type { IdempotencyRecord, IdempotencyStore } from "../idempotency-store.js";
import type { StoreState } from "./store-state.js";

/** Lookups answer from memory: the records are written by the creates themselves. */
export class IndexedIdempotencyStore implements IdempotencyStore {
  readonly #state: StoreState;

  constructor(state: StoreState) {
    this.#state = state;
  }

  async find(id: string, now: number): Promise<IdempotencyRecord | undefined> {
    return this.#state.idempotency.find(id, now);
  }
}
