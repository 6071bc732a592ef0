import type { EventType, StoreEvent } from "../../contract/events.js";
import type { EventFeed } from "../../store/event-feed.js";
import { FramedBatch, SSE_KEEP_ALIVE, sseReset, sseRetry } from "./sse-format.js";

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

/**
 * Where a stream's bytes go: the node ServerResponse when served over a socket, srvx's PassThrough
 * when the app is called without one (app.fetch). `writableLength` counts what is not yet sent.
 */
export interface SseSink {
  write(chunk: Uint8Array | string): boolean;
  end(): void;
  destroy(error?: Error): void;
  readonly writableLength: number;
  once(event: "close", listener: () => void): unknown;
}

/** What a stream needs from the one fan-out of its process (see event-fan-out.ts). */
export interface StreamHub {
  feed: EventFeed;
  settings: EventStreamSettings;
  join(stream: EventStream): void;
  leave(stream: EventStream): void;
}

export interface EventStreamDeps {
  hub: StreamHub;
  /** Streams of one key share their revocation lookups. */
  keyId: string;
  /** True once the stream's key no longer works. */
  isRevoked: () => Promise<boolean>;
  /** Called once when the stream ends, however it ends. */
  onEnd: () => void;
}

/**
 * One subscriber's stream, written straight to its socket: no web stream, no timer and no copy
 * of its own (the fan-out hands it batches framed once for every stream). It joins the fan-out
 * first, then replays the backlog after `lastId`, then sends live events, never one twice (ids at
 * or below the last sent are dropped). The socket's unsent bytes are checked after every write:
 * a consumer that stops reading is cut once they pass `maxUnsentBytes`, and resumes by id.
 *
 * It is the response body itself: srvx writes the head, then calls `pipe(res)`.
 */
export class EventStream {
  readonly keyId: string;
  /** Streams with the same key get the same bytes of a batch. */
  readonly filterKey: string;
  readonly #types: ReadonlySet<EventType> | undefined;
  readonly #deps: EventStreamDeps;
  #sink: SseSink | undefined;
  /** What was to be written before the sink arrived. */
  #early: (Uint8Array | string)[] = [];
  #earlyBytes = 0;
  #replaying = true;
  #held: FramedBatch[] = [];
  #lastSent: number | undefined;
  #ended = false;
  /** Why it was cut before a sink arrived: the sink is then destroyed, not ended. */
  #failure: Error | undefined;

  constructor(request: EventStreamRequest, deps: EventStreamDeps) {
    this.#types = request.types;
    this.filterKey = request.types ? [...request.types].sort().join(",") : "";
    this.keyId = deps.keyId;
    this.#deps = deps;
    this.#lastSent = request.lastId;
    deps.hub.join(this);
    this.#write(sseRetry(deps.hub.settings.retryMs));
    void this.#replay(request.lastId).catch(() => this.#cut(new Error("the backlog could not be read")));
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Called by srvx once the head is written (node's pipe contract, for a body that is not a stream). */
  pipe<T extends SseSink>(sink: T): T {
    if (this.#ended) {
      if (this.#failure) sink.destroy(this.#failure);
      else sink.end();
      return sink;
    }
    this.#sink = sink;
    sink.once("close", () => this.#finish());
    const early = this.#early;
    this.#early = [];
    for (const chunk of early) this.#write(chunk);
    return sink;
  }

  /** srvx's call for a HEAD request or a connection gone before the head was written. */
  destroy(): void {
    this.#finish();
  }

  /** Ends the stream cleanly: what is written is still sent. */
  end(): void {
    if (this.#ended) return;
    this.#finish();
    this.#sink?.end();
  }

  /** A batch from the fan-out, in feed order. */
  receive(batch: FramedBatch): void {
    if (this.#replaying) this.#held.push(batch);
    else this.#deliver(batch);
  }

  keepAlive(): void {
    this.#write(SSE_KEEP_ALIVE);
  }

  isRevoked(): Promise<boolean> {
    return this.#deps.isRevoked();
  }

  #deliver(batch: FramedBatch): void {
    const events = batch.events;
    if (events.length === 0) return;
    const lastSent = this.#lastSent;
    const types = this.#types;
    // The usual case, every live stream: nothing of the batch sent yet, so the shared bytes do.
    const bytes =
      lastSent === undefined || events[0]!.id > lastSent
        ? batch.bytes(this.filterKey, (event) => !types || types.has(event.type))
        : batch.select((event) => event.id > lastSent && (!types || types.has(event.type)));
    this.#lastSent = Math.max(lastSent ?? 0, events[events.length - 1]!.id);
    if (bytes) this.#write(bytes);
  }

  async #replay(lastId: number | undefined): Promise<void> {
    const { feed } = this.#deps.hub;
    if (lastId !== undefined) {
      const found = await feed.since(lastId);
      if (found.reset) {
        this.#write(sseReset(lastId));
        this.#lastSent = undefined;
      } else this.#deliver(new FramedBatch(found.events));
    }
    this.#replaying = false;
    // What arrived while the backlog was read; ids already replayed are dropped by #deliver.
    const held = this.#held;
    this.#held = [];
    for (const batch of held) this.#deliver(batch);
  }

  #write(chunk: Uint8Array | string): void {
    if (this.#ended) return;
    const sink = this.#sink;
    let unsent: number;
    if (sink) {
      sink.write(chunk);
      unsent = sink.writableLength;
    } else {
      this.#early.push(chunk);
      unsent = this.#earlyBytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.byteLength;
    }
    // Dropping the connection frees what it holds; the client resumes by id.
    if (unsent > this.#deps.hub.settings.maxUnsentBytes) this.#cut(new Error("consumer too slow: more than the unsent-bytes limit queued"));
  }

  #cut(reason: Error): void {
    if (this.#ended) return;
    this.#failure = reason;
    this.#finish();
    this.#sink?.destroy(reason);
  }

  #finish(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#early = [];
    this.#held = [];
    this.#deps.hub.leave(this);
    this.#deps.onEnd();
  }
}
