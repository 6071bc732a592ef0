import { RESET_EVENT, type StoreEvent } from "../../contract/events.js";

// The WHATWG text/event-stream framing. Every data line is one JSON document, which never
// holds a raw newline, so each event is exactly one `data:` line.

export const sseEvent = (event: StoreEvent): string => `event: ${event.type}\nid: ${event.id}\ndata: ${JSON.stringify(event)}\n\n`;

/** The asked id is older than the backlog: re-list, then follow. It carries no id, so a reconnect asks again. */
export const sseReset = (lastId: number): string =>
  `event: ${RESET_EVENT}\ndata: ${JSON.stringify({ type: RESET_EVENT, lastEventId: lastId, message: "events after this id are no longer kept: list again, then follow" })}\n\n`;

/** The server was reset to its seed (POST /admin/reset): every id before is gone, so list again. */
export const sseServerReset = (): string =>
  `event: ${RESET_EVENT}\ndata: ${JSON.stringify({ type: RESET_EVENT, lastEventId: 0, message: "the server was reset to its seed: list again, then follow" })}\n\n`;

export const sseRetry = (ms: number): string => `retry: ${ms}\n\n`;

export const SSE_KEEP_ALIVE = ": keep-alive\n\n";

/**
 * One batch of events as every stream will send it: each event is framed once, and the bytes for
 * one filter are built once, however many streams share that filter (with many streams, framing
 * and encoding once per subscriber was a large share of the server's time in a profile).
 */
export class FramedBatch {
  readonly events: readonly StoreEvent[];
  #texts: string[] | undefined;
  readonly #byFilter = new Map<string, Buffer | null>();
  readonly #chunkByFilter = new Map<string, Buffer | null>();

  constructor(events: readonly StoreEvent[]) {
    this.events = events;
  }

  /** The batch's events that pass `accepts`, as one Buffer (null when none does); cached by `filterKey`. */
  bytes(filterKey: string, accepts: (event: StoreEvent) => boolean): Buffer | null {
    let found = this.#byFilter.get(filterKey);
    if (found === undefined) {
      found = this.select((event) => accepts(event));
      this.#byFilter.set(filterKey, found);
    }
    return found;
  }

  /** The same bytes as one HTTP/1.1 chunk (size line, bytes, CRLF), for streams written straight to their socket. */
  chunk(filterKey: string, accepts: (event: StoreEvent) => boolean): Buffer | null {
    let found = this.#chunkByFilter.get(filterKey);
    if (found === undefined) {
      const bytes = this.bytes(filterKey, accepts);
      found = bytes && httpChunk(bytes);
      this.#chunkByFilter.set(filterKey, found);
    }
    return found;
  }

  /** The events that pass `keep`, framed, as one Buffer (null when none does); not cached. */
  select(keep: (event: StoreEvent) => boolean): Buffer | null {
    const texts = (this.#texts ??= this.events.map(sseEvent));
    let joined = "";
    for (let n = 0; n < texts.length; n++) if (keep(this.events[n]!)) joined += texts[n];
    return joined === "" ? null : Buffer.from(joined);
  }
}

/** `bytes` framed as one chunk of a `Transfer-Encoding: chunked` body. */
export function httpChunk(bytes: Uint8Array): Buffer {
  const size = `${bytes.byteLength.toString(16)}\r\n`;
  const chunk = Buffer.allocUnsafe(size.length + bytes.byteLength + 2);
  chunk.write(size, 0, "latin1");
  chunk.set(bytes, size.length);
  chunk.write("\r\n", size.length + bytes.byteLength, "latin1");
  return chunk;
}
