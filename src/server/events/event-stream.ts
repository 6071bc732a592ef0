import type { EventType, StoreEvent } from "../../contract/events.js";
import type { EventFeed } from "../../store/event-feed.js";
import { SSE_KEEP_ALIVE, sseEvent, sseReset, sseRetry } from "./sse-format.js";

/** Timers, injected so a test can shorten the keep-alive or the revocation check. */
export interface StreamTimers {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface EventStreamSettings {
  keepAliveMs: number;
  retryMs: number;
  /** Unsent bytes a consumer may hold before its stream is cut. */
  maxUnsentBytes: number;
  /** How often the key is looked up again, so a revoked key's stream ends within it. */
  revocationCheckMs: number;
}

export interface EventStreamRequest {
  /** Only these types; all when absent. */
  types?: ReadonlySet<EventType>;
  /** Resume after this id (Last-Event-ID); live only when absent. */
  lastId?: number;
}

export interface EventStreamDeps {
  feed: EventFeed;
  settings: EventStreamSettings;
  timers: StreamTimers;
  /** True once the stream's key no longer works. */
  isRevoked: () => Promise<boolean>;
  /** Called once when the stream ends, however it ends. */
  onEnd: () => void;
}

export interface EventStream {
  body: ReadableStream<Uint8Array>;
  /** Ends the stream cleanly: what is queued is still sent. */
  end(): void;
}

const encoder = new TextEncoder();

/**
 * One subscriber's stream: subscribes first, then replays the backlog after `lastId`, then
 * sends live events, never one twice (ids at or below the last sent are dropped). The queue is
 * measured in bytes: srvx reads it only as fast as the socket drains, so a consumer that stops
 * reading lets it grow, and past `maxUnsentBytes` the stream is cut.
 */
export function openEventStream(request: EventStreamRequest, deps: EventStreamDeps): EventStream {
  const { feed, settings, timers } = deps;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let ended = false;
  let replaying = true;
  let lastSent: number | undefined = request.lastId;
  const held: StoreEvent[] = [];
  const timerHandles: unknown[] = [];
  let unsubscribe = () => {};

  const finish = () => {
    if (ended) return;
    ended = true;
    unsubscribe();
    for (const handle of timerHandles) timers.clearInterval(handle);
    deps.onEnd();
  };
  const send = (text: string) => {
    if (ended) return;
    controller.enqueue(encoder.encode(text));
    if (-(controller.desiredSize ?? 0) > settings.maxUnsentBytes) {
      // Dropping the queue and the connection frees the memory; the client resumes by id.
      controller.error(new Error("consumer too slow: more than the unsent-bytes limit queued"));
      finish();
    }
  };
  const deliver = (events: readonly StoreEvent[]) => {
    for (const event of events) {
      if (lastSent !== undefined && event.id <= lastSent) continue;
      lastSent = event.id;
      if (!request.types || request.types.has(event.type)) send(sseEvent(event));
    }
  };
  const end = () => {
    if (ended) return;
    finish();
    controller.close();
  };

  const body = new ReadableStream<Uint8Array>(
    {
      start: (c) => {
        controller = c;
        unsubscribe = feed.subscribe((events) => (replaying ? held.push(...events) : deliver(events)));
        send(sseRetry(settings.retryMs));
        timerHandles.push(timers.setInterval(() => send(SSE_KEEP_ALIVE), settings.keepAliveMs));
        timerHandles.push(timers.setInterval(() => void checkRevoked(deps.isRevoked, end), settings.revocationCheckMs));
        void replay(request.lastId).catch(() => {
          if (!ended) controller.error(new Error("the backlog could not be read"));
          finish();
        });
      },
      cancel: finish,
    },
    { highWaterMark: 0, size: (chunk) => chunk.byteLength },
  );

  async function replay(lastId: number | undefined): Promise<void> {
    if (lastId !== undefined) {
      const found = await feed.since(lastId);
      if (found.reset) {
        send(sseReset(lastId));
        lastSent = undefined;
      } else deliver(found.events);
    }
    replaying = false;
    // What arrived while the backlog was read; ids already replayed are dropped by deliver.
    deliver(held.splice(0));
  }

  return { body, end };
}

async function checkRevoked(isRevoked: () => Promise<boolean>, end: () => void): Promise<void> {
  // A lookup that fails (storage down) keeps the stream: the key was valid when it opened.
  if (await isRevoked().catch(() => false)) end();
}
