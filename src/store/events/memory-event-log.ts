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
  // The backlog is kept as each event's JSON text and commit time, not as objects: an hour of
  // events at a steady 80 a second is some 290,000 of them, and as objects (with the records
  // they hold on to) each cost about 470 bytes of heap, against about 180 as text. The soak
  // showed it as the one thing that grew. Replays, rare, parse the text back; live delivery hands
  // subscribers the objects themselves.
  readonly #texts: string[] = [];
  readonly #times: number[] = [];
  readonly #listeners = new Set<(events: readonly StoreEvent[]) => void>();
  readonly #now: () => number;
  readonly #rules: BacklogRules;
  #head = 0;
  /** The id of the event at #texts[0]; ids follow on, so the rest is arithmetic. */
  #baseId = 0;
  #lastId: number;

  constructor(lastId: number, now: () => number, rules: BacklogRules = EVENT_BACKLOG) {
    this.#lastId = lastId;
    this.#baseId = lastId + 1;
    this.#now = now;
    this.#rules = rules;
  }

  get last(): number {
    return this.#lastId;
  }

  /** Records durable events (ids must follow on) and hands them to every subscriber. */
  publish(events: readonly StoreEvent[]): void {
    if (events.length === 0) return;
    for (const event of events) {
      // Ids follow on (group-commit numbers them from `last`); should one not, the backlog starts
      // again from it, and older ids are answered with reset rather than with the wrong events.
      if (event.id !== this.#baseId + this.#texts.length) this.#restartAt(event.id);
      this.#texts.push(JSON.stringify(event));
      this.#times.push(Date.parse(event.at));
      this.#lastId = event.id;
    }
    this.#trim();
    for (const listener of this.#listeners) listener(events);
  }

  async since(lastId: number): Promise<Replay> {
    // Nothing missed: the asked id is the newest (or newer, from a client that is confused).
    if (lastId >= this.#lastId) return { reset: false, events: [] };
    const firstKept = this.#baseId + this.#head;
    if (this.#head >= this.#texts.length || lastId < firstKept - 1) return { reset: true, events: [] };
    const from = this.#head + (lastId - firstKept + 1);
    return { reset: false, events: this.#texts.slice(from).map((text) => JSON.parse(text) as StoreEvent) };
  }

  subscribe(listener: (events: readonly StoreEvent[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async lastId(): Promise<number> {
    return this.#lastId;
  }

  #restartAt(id: number): void {
    this.#texts.length = 0;
    this.#times.length = 0;
    this.#head = 0;
    this.#baseId = id;
  }

  // An event leaves only when both rules allow it: more than `events` newer ones, and older than `ms`.
  #trim(): void {
    const cutoff = this.#now() - this.#rules.ms;
    while (this.#texts.length - this.#head > this.#rules.events && this.#times[this.#head]! < cutoff) this.#head++;
    // Compact now and then rather than shifting on every event.
    if (this.#head > 4096 && this.#head * 2 > this.#texts.length) {
      this.#texts.splice(0, this.#head);
      this.#times.splice(0, this.#head);
      this.#baseId += this.#head;
      this.#head = 0;
    }
  }
}
