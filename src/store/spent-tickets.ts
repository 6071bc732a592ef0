/**
 * The event-stream tickets already used (src/server/events/event-tickets.ts): a ticket opens one
 * stream once, on whichever instance it is presented. Only ids are kept, never a secret, and each
 * only until its ticket expires (after that the ticket is refused for its expiry anyway).
 */
export interface SpentTickets {
  /** True the first time `id` is spent; false for every later call, concurrent ones included. */
  spend(id: string, expiresAt: number, now: number): Promise<boolean>;
}

/** For an engine of one process (the file engine holds a lock): a map, pruned as it goes. */
export class MemorySpentTickets implements SpentTickets {
  /** Ticket id to its expiry (ms); in the order spent, which is close to the order of expiry. */
  readonly #spent = new Map<string, number>();

  async spend(id: string, expiresAt: number, now: number): Promise<boolean> {
    this.#prune(now);
    if (this.#spent.has(id)) return false;
    this.#spent.set(id, expiresAt);
    return true;
  }

  get size(): number {
    return this.#spent.size;
  }

  /** Drops the oldest entries while they are past their expiry: a later one out of order waits its turn. */
  #prune(now: number): void {
    for (const [id, expiresAt] of this.#spent) {
      if (expiresAt > now) return;
      this.#spent.delete(id);
    }
  }
}
