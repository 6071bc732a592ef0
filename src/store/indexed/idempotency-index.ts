import { IdempotencyKeyTakenError, isLive, type IdempotencyRecord } from "../idempotency-store.js";

/**
 * Committed idempotency records by id, and the ids of creates staged but not yet durable. Expired
 * records are dropped when looked up and left out of every snapshot, so they go at the next rewrite.
 */
export class IdempotencyIndex {
  readonly #byId = new Map<string, IdempotencyRecord>();
  readonly #staged = new Set<string>();

  /** Later records replace earlier ones with the same id (a key reused after it expired). */
  add(records: readonly IdempotencyRecord[]): void {
    for (const record of records) this.#byId.set(record.id, Object.freeze({ ...record }));
  }

  find(id: string, now: number): IdempotencyRecord | undefined {
    const record = this.#byId.get(id);
    if (record && !isLive(record, now)) this.#byId.delete(id);
    return record && isLive(record, now) ? record : undefined;
  }

  /**
   * Reserves `id` for a create about to be staged; IdempotencyKeyTakenError when a live record or
   * another staged create has it. Checked and reserved in one turn, so no second create slips in.
   */
  claim(id: string, now: number): void {
    if (this.#staged.has(id) || this.find(id, now)) throw new IdempotencyKeyTakenError(id);
    this.#staged.add(id);
  }

  /** The create that claimed `id` is durable (its record is here now) or failed. */
  release(id: string): void {
    this.#staged.delete(id);
  }

  /** The records still live at `now`, followed by `added`: what a snapshot holds. */
  live(now: number, added: readonly IdempotencyRecord[] = []): IdempotencyRecord[] {
    const replaced = new Set(added.map((record) => record.id));
    const records = [...this.#byId.values()].filter((record) => isLive(record, now) && !replaced.has(record.id));
    return records.concat(added);
  }
}
