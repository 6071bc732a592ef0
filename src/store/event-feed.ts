import type { StoreEvent } from "../contract/events.js";

/** What a resume from `lastId` finds: the events after it, or `reset` when it is older than the backlog. */
export type Replay = { reset: false; events: StoreEvent[] } | { reset: true; events: [] };

/**
 * The changes of a store as events, in durable order: a backlog to resume from, and live
 * delivery. Each engine implements it beside its stores (memory for lowdb, a table plus
 * LISTEN/NOTIFY for PostgreSQL).
 */
export interface EventFeed {
  /** The events after `lastId`, or reset. A subscriber must subscribe first, then replay, and drop ids it already has. */
  since(lastId: number): Promise<Replay>;
  /** Calls `listener` with each new batch of events, in order; returns the unsubscribe. */
  subscribe(listener: (events: readonly StoreEvent[]) => void): () => void;
  /** The id of the newest event (0 before the first). */
  lastId(): Promise<number>;
}
