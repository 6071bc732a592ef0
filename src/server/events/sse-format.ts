import { RESET_EVENT, type StoreEvent } from "../../contract/events.js";

// The WHATWG text/event-stream framing. Every data line is one JSON document, which never
// holds a raw newline, so each event is exactly one `data:` line.

export const sseEvent = (event: StoreEvent): string => `event: ${event.type}\nid: ${event.id}\ndata: ${JSON.stringify(event)}\n\n`;

/** The asked id is older than the backlog: re-list, then follow. It carries no id, so a reconnect asks again. */
export const sseReset = (lastId: number): string =>
  `event: ${RESET_EVENT}\ndata: ${JSON.stringify({ type: RESET_EVENT, lastEventId: lastId, message: "events after this id are no longer kept: list again, then follow" })}\n\n`;

export const sseRetry = (ms: number): string => `retry: ${ms}\n\n`;

export const SSE_KEEP_ALIVE = ": keep-alive\n\n";
