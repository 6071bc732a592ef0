import { deflateRawSync, inflateRawSync } from "node:zlib";
import { EVENT_BACKLOG, type StoreEvent } from "../../contract/events.js";
import type { EventFeed, Replay } from "../event-feed.js";

export interface BacklogRules {
  /** Keep at least this many events... */
  events: number;
  /** ...or every event younger than this (ms), whichever keeps more. */
  ms: number;
}

/** Events per compressed block: enough JSON to deflate well, little enough to deflate in a short turn. */
export const EVENTS_PER_BLOCK = 512;

/**
 * A full block: its events' JSON texts joined by newlines and deflated, and the commit time of its
 * first event. The others' times are in the texts: only trimming the oldest block reads them.
 */
interface Block {
  firstId: number;
  count: number;
  firstTime: number;
  data: Buffer;
}

/**
 * The events of one process, kept in memory within the backlog rules. `firstId` is where the
 * ids of this run start (the persisted counter + 1): an id below it belongs to a run whose
 * events are gone, so it is answered with reset.
 */
export class MemoryEventLog implements EventFeed {
  // An hour of events under steady writes is hundreds of thousands of them: as objects they take
  // several times the heap of their JSON text, and the soak showed the backlog as what grew. So the
  // newest events are held as text, and every EVENTS_PER_BLOCK of them are deflated into one
  // block (events repeat their keys and values, so they deflate well, off the V8 heap). Replays,
  // rare, inflate and parse; live delivery hands subscribers the objects themselves. A block keeps
  // only its first event's time (a time per event would weigh as much as the deflated text):
  // trimming reads the others from the oldest block's texts, once a block, and only after the
  // first hour.
  readonly #blocks: Block[] = [];
  /** The commit times of the oldest block's events, read from its texts once trimming reaches inside it. */
  #oldestTimes: { block: Block; times: number[] } | undefined;
  #openTexts: string[] = [];
  #openTimes: number[] = [];
  /** The id of #openTexts[0]; ids follow on, so the rest is arithmetic. */
  #openFirstId: number;
  /** The oldest id still held (trimmed events may sit in the oldest block until it all goes). */
  #firstId: number;
  #lastId: number;
  readonly #listeners = new Set<(events: readonly StoreEvent[]) => void>();
  readonly #now: () => number;
  readonly #rules: BacklogRules;

  constructor(lastId: number, now: () => number, rules: BacklogRules = EVENT_BACKLOG) {
    this.#lastId = lastId;
    this.#openFirstId = lastId + 1;
    this.#firstId = lastId + 1;
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
      if (event.id !== this.#openFirstId + this.#openTexts.length) this.#restartAt(event.id);
      this.#openTexts.push(JSON.stringify(event));
      this.#openTimes.push(Date.parse(event.at));
      this.#lastId = event.id;
      if (this.#openTexts.length === EVENTS_PER_BLOCK) this.#seal();
    }
    this.#trim();
    for (const listener of this.#listeners) listener(events);
  }

  async since(lastId: number): Promise<Replay> {
    // Nothing missed: the asked id is the newest.
    if (lastId === this.#lastId) return { reset: false, events: [] };
    // Newer than any event here: not this store's history (another server's, or a db restored
    // from a backup since). Waiting for the ids to pass it would hide every change until then.
    if (lastId > this.#lastId) return { reset: true, events: [] };
    if (this.#held() === 0 || lastId < this.#firstId - 1) return { reset: true, events: [] };
    const from = lastId + 1;
    const texts: string[] = [];
    for (const block of this.#blocks) {
      if (block.firstId + block.count <= from) continue;
      const lines = textsOf(block);
      texts.push(...lines.slice(Math.max(0, from - block.firstId)));
    }
    texts.push(...this.#openTexts.slice(Math.max(0, from - this.#openFirstId)));
    return { reset: false, events: texts.map((text) => JSON.parse(text) as StoreEvent) };
  }

  subscribe(listener: (events: readonly StoreEvent[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async lastId(): Promise<number> {
    return this.#lastId;
  }

  #held(): number {
    return this.#lastId - this.#firstId + 1;
  }

  #restartAt(id: number): void {
    this.#blocks.length = 0;
    this.#oldestTimes = undefined;
    this.#openTexts = [];
    this.#openTimes = [];
    this.#openFirstId = id;
    this.#firstId = id;
  }

  #seal(): void {
    // Copied to its own size: zlib hands back a view of its 16 KiB output chunk, and a block of the
    // soak's events deflates to far less, so the view would keep the rest alive for as long as the block.
    const data = Buffer.from(deflateRawSync(this.#openTexts.join("\n"), { level: 1 }));
    this.#blocks.push({ firstId: this.#openFirstId, count: this.#openTexts.length, firstTime: this.#openTimes[0]!, data });
    this.#openFirstId += this.#openTexts.length;
    this.#openTexts = [];
    this.#openTimes = [];
  }

  /** The commit time of a held event. */
  #timeOf(id: number): number {
    const block = this.#blocks[0];
    if (!block || id >= block.firstId + block.count) return this.#openTimes[id - this.#openFirstId]!;
    if (id === block.firstId) return block.firstTime;
    if (this.#oldestTimes?.block !== block) {
      this.#oldestTimes = { block, times: textsOf(block).map((text) => Date.parse((JSON.parse(text) as StoreEvent).at)) };
    }
    return this.#oldestTimes.times[id - block.firstId]!;
  }

  // An event leaves only when both rules allow it: more than `events` newer ones, and older than `ms`.
  // A block is freed once its last event has left.
  #trim(): void {
    const cutoff = this.#now() - this.#rules.ms;
    while (this.#held() > this.#rules.events && this.#timeOf(this.#firstId) < cutoff) {
      this.#firstId++;
      const oldest = this.#blocks[0];
      if (oldest && this.#firstId >= oldest.firstId + oldest.count) this.#blocks.shift();
    }
  }
}

function textsOf(block: Block): string[] {
  return inflateRawSync(block.data).toString("utf8").split("\n");
}
