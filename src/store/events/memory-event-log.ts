import { EVENT_BACKLOG, type StoreEvent } from "../../contract/events.js";
import type { EventFeed, Replay } from "../event-feed.js";

export interface BacklogRules {
  /** Keep at least this many events... */
  events: number;
  /** ...or every event younger than this (ms), whichever keeps more. */
  ms: number;
}

/**
 * The events of one process, kept in memory within the backlog rules. `firstId` is where the
 * ids of this run start (the persisted counter + 1): an id below it belongs to a run whose
 * events are gone, so it is answered with reset.
 */
export class MemoryEventLog implements EventFeed {
  readonly #events: StoreEvent[] = [];
  readonly #listeners = new Set<(events: readonly StoreEvent[]) => void>();
  readonly #now: () => number;
  readonly #rules: BacklogRules;
  #head = 0;
  #lastId: number;

  constructor(lastId: number, now: () => number, rules: BacklogRules = EVENT_BACKLOG) {
    this.#lastId = lastId;
    this.#now = now;
    this.#rules = rules;
  }

  get last(): number {
    return this.#lastId;
  }

  /** Records durable events (ids must follow on) and hands them to every subscriber. */
  publish(events: readonly StoreEvent[]): void {
    if (events.length === 0) return;
    for (const event of events) this.#events.push(event);
    this.#lastId = events[events.length - 1]!.id;
    this.#trim();
    for (const listener of this.#listeners) listener(events);
  }

  async since(lastId: number): Promise<Replay> {
    const first = this.#events[this.#head];
    // Nothing missed: the asked id is the newest (or newer, from a client that is confused).
    if (lastId >= this.#lastId) return { reset: false, events: [] };
    if (!first || lastId < first.id - 1) return { reset: true, events: [] };
    return { reset: false, events: this.#events.slice(this.#head + (lastId - first.id + 1)) };
  }

  subscribe(listener: (events: readonly StoreEvent[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async lastId(): Promise<number> {
    return this.#lastId;
  }

  // An event leaves only when both rules allow it: more than `events` newer ones, and older than `ms`.
  #trim(): void {
    const cutoff = new Date(this.#now() - this.#rules.ms).toISOString();
    while (this.#events.length - this.#head > this.#rules.events && this.#events[this.#head]!.at < cutoff) this.#head++;
    // Compact now and then rather than shifting on every event.
    if (this.#head > 4096 && this.#head * 2 > this.#events.length) {
      this.#events.splice(0, this.#head);
      this.#head = 0;
    }
  }
}
