import type { EventType, StoreEvent } from "../../contract/events.js";
import type { EventFeed } from "../../store/event-feed.js";
import { FramedBatch, httpChunk, SSE_KEEP_ALIVE, sseReset, sseRetry } from "./sse-format.js";

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
  /** A node ServerResponse's: whether its connection is already gone. */
  readonly destroyed?: boolean;
  readonly closed?: boolean;
  once(event: "close", listener: () => void): unknown;
  /** A node ServerResponse's: whether the body goes out chunked, and over which socket. */
  readonly chunkedEncoding?: boolean;
  readonly socket?: RawSocket | null;
}

type RawSocket = { write(chunk: Uint8Array): boolean; readonly writableLength: number; once(event: "drain" | "close", listener: () => void): unknown };

/** What a stream needs from the one fan-out of its process (see event-fan-out.ts). */
export interface StreamHub {
  feed: EventFeed;
  settings: EventStreamSettings;
  join(stream: EventStream): void;
  leave(stream: EventStream): void;
  /** Writes the batches it holds back now. */
  flush(): void;
}

export interface EventStreamDeps {
  hub: StreamHub;
  keyId: string;
  /** Streams opened with the same credential (key and secret) share their lookups; the key id when absent. */
  credential?: string;
  /** True once the credential the stream was opened with no longer works (revoked, expired, rotated, banned). */
  isRevoked: () => Promise<boolean>;
  /** Called once when the stream ends, however it ends. */
  onEnd: () => void;
  /** Called when the stream is cut for holding more than `maxUnsentBytes` unsent, with how many it held. */
  onCut?: (unsentBytes: number) => void;
}

/** Events of a replayed backlog written at a time (some 100 KiB), and the unsent bytes below which the next goes. */
const REPLAY_SLICE = 256;
const REPLAY_PAUSE_BYTES = 256 * 1024;

const KEEP_ALIVE_CHUNK = httpChunk(Buffer.from(SSE_KEEP_ALIVE));

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
  /** Streams with the same credential share one lookup of whether it still works. */
  readonly credential: string;
  /** Streams with the same key get the same bytes of a batch. */
  readonly filterKey: string;
  readonly #types: ReadonlySet<EventType> | undefined;
  readonly #deps: EventStreamDeps;
  #sink: SseSink | undefined;
  /**
   * Once the head and the first bytes are out through the ServerResponse, a chunked response's
   * batches are written to its socket as ready-made chunks, shared by every stream: a
   * ServerResponse write frames each one anew and corks, which was most of a write's own cost.
   */
  #socket: RawSocket | undefined;
  /** Resolves once the sink is there (or the stream has ended): the backlog is written to it, not queued before it. */
  #piped: Promise<void>;
  #onPiped: () => void = () => {};
  /** What was to be written before the sink arrived. */
  #early: (Uint8Array | string)[] = [];
  #earlyBytes = 0;
  #replaying = true;
  #held: FramedBatch[] = [];
  /** What the held batches will write: it counts against the limit as much as the unsent bytes do. */
  #heldBytes = 0;
  #lastSent: number | undefined;
  #ended = false;
  /** Why it was cut before a sink arrived: the sink is then destroyed, not ended. */
  #failure: Error | undefined;

  constructor(request: EventStreamRequest, deps: EventStreamDeps) {
    this.#types = request.types;
    this.filterKey = request.types ? [...request.types].sort().join(",") : "";
    this.keyId = deps.keyId;
    this.credential = deps.credential ?? deps.keyId;
    this.#deps = deps;
    this.#lastSent = request.lastId;
    this.#piped = new Promise((resolve) => (this.#onPiped = resolve));
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
    // A connection gone before the head was written closes no more: nothing would end the stream.
    if (sink.destroyed === true || sink.closed === true) {
      this.#finish();
      return sink;
    }
    sink.once("close", () => this.#finish());
    const early = this.#early;
    this.#early = [];
    for (const chunk of early) this.#write(chunk);
    if (sink.chunkedEncoding === true && sink.socket) this.#socket = sink.socket;
    this.#onPiped();
    return sink;
  }

  /** srvx's call for a HEAD request or a connection gone before the head was written. */
  destroy(): void {
    this.#finish();
  }

  /** Ends the stream cleanly: what is written is still sent, then `last` (an SSE frame) when given. */
  end(last?: string): void {
    if (this.#ended) return;
    this.#deps.hub.flush();
    if (last !== undefined) this.#write(last);
    this.#finish();
    this.#sink?.end();
  }

  /** A batch from the fan-out, in feed order. */
  receive(batch: FramedBatch): void {
    if (!this.#replaying) return this.#deliver(batch);
    this.#held.push(batch);
    this.#heldBytes += batch.bytes(this.filterKey, (event) => !this.#types || this.#types.has(event.type))?.byteLength ?? 0;
    this.#checkUnsent(this.#sink?.writableLength ?? this.#earlyBytes);
  }

  keepAlive(): void {
    if (this.#socket) this.#write(KEEP_ALIVE_CHUNK, true);
    else this.#write(SSE_KEEP_ALIVE);
  }

  isRevoked(): Promise<boolean> {
    return this.#deps.isRevoked();
  }

  #deliver(batch: FramedBatch): void {
    const events = batch.events;
    if (events.length === 0) return;
    const lastSent = this.#lastSent;
    const types = this.#types;
    this.#lastSent = Math.max(lastSent ?? 0, events[events.length - 1]!.id);
    const accepts = (event: StoreEvent) => !types || types.has(event.type);
    // The usual case, every live stream: nothing of the batch sent yet, so the shared bytes do.
    if (lastSent === undefined || events[0]!.id > lastSent) {
      const shared = this.#socket ? batch.chunk(this.filterKey, accepts) : batch.bytes(this.filterKey, accepts);
      if (shared) this.#write(shared, this.#socket !== undefined);
      return;
    }
    const bytes = batch.select((event) => event.id > lastSent && accepts(event));
    if (bytes) this.#write(bytes);
  }

  async #replay(lastId: number | undefined): Promise<void> {
    const { feed } = this.#deps.hub;
    if (lastId !== undefined) {
      const found = await feed.since(lastId);
      await this.#piped;
      if (found.reset) {
        this.#write(sseReset(lastId));
        this.#lastSent = undefined;
      }
      // In slices, each once the socket has taken the one before: a backlog of several MiB to a
      // client that reads is not a slow consumer, and one that does not read is cut at the limit.
      for (let at = 0; !found.reset && at < found.events.length && !this.#ended; at += REPLAY_SLICE) {
        this.#deliver(new FramedBatch(found.events.slice(at, at + REPLAY_SLICE)));
        await this.#drained();
      }
    }
    this.#replaying = false;
    // What arrived while the backlog was read; ids already replayed are dropped by #deliver.
    const held = this.#held;
    this.#held = [];
    this.#heldBytes = 0;
    for (const batch of held) this.#deliver(batch);
  }

  /** Resolves once the socket's unsent bytes are below one slice's worth (or the stream ended). */
  async #drained(): Promise<void> {
    const target = this.#socket ?? this.#sink;
    if (!target || this.#ended || target.writableLength < REPLAY_PAUSE_BYTES) return;
    await new Promise<void>((resolve) => {
      target.once("drain", resolve);
      target.once("close", resolve);
    });
  }

  /** Writes `chunk`; `framed` when it already is one HTTP chunk for the socket. */
  #write(chunk: Uint8Array | string, framed = false): void {
    if (this.#ended) return;
    const sink = this.#sink;
    let unsent: number;
    if (sink) {
      if (framed) this.#socket!.write(chunk as Uint8Array);
      else if (this.#socket) this.#socket.write(httpChunk(typeof chunk === "string" ? Buffer.from(chunk) : chunk));
      else sink.write(chunk);
      unsent = sink.writableLength;
    } else {
      this.#early.push(chunk);
      unsent = this.#earlyBytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.byteLength;
    }
    this.#checkUnsent(unsent);
  }

  #checkUnsent(unsent: number): void {
    // Dropping the connection frees what it holds; the client resumes by id.
    const held = unsent + this.#heldBytes;
    if (held > this.#deps.hub.settings.maxUnsentBytes) {
      this.#cut(new Error("consumer too slow: more than the unsent-bytes limit queued"));
      this.#deps.onCut?.(held);
    }
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
    this.#heldBytes = 0;
    this.#onPiped();
    this.#deps.hub.leave(this);
    this.#deps.onEnd();
  }
}
