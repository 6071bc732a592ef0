// GET /v1/events: the changes of the store as Server-Sent Events (see src/contract/events.ts).
import type { H3Event } from "h3";
import { isEventType, type EventType } from "../../contract/events.js";
import { EVENT_TYPES_MAX_LENGTH } from "../../contract/limits.js";
import { queryParameters } from "../../contract/routes.js";
import type { EventFeed } from "../../store/event-feed.js";
import type { KeyStore } from "../../store/key-store.js";
import { ApiHttpError, invalidParameter } from "../errors.js";
import { openEventStream, type EventStreamSettings, type StreamTimers } from "../events/event-stream.js";
import type { StreamRegistry } from "../events/stream-registry.js";
import { readQuery, safeEcho } from "../internal/query.js";

const PARAMETERS = queryParameters("streamEvents") as Array<"types" | "lastEventId">;
const EVENT_ID = /^(0|[1-9]\d{0,15})$/;

export interface EventRouteDeps {
  feed: EventFeed;
  streams: StreamRegistry;
  keys: KeyStore;
  settings: EventStreamSettings;
  timers: StreamTimers;
}

/** streamEvents: validates, takes one of the key's stream slots, and answers with the stream. */
export function streamEvents(event: H3Event, deps: EventRouteDeps): Response {
  const query = readQuery(event.url, PARAMETERS);
  const types = parseTypes(query.types);
  const lastId = parseEventId("Last-Event-ID", event.req.headers.get("last-event-id") ?? undefined) ?? parseEventId("lastEventId", query.lastEventId);
  const principal = event.context.principal;
  const keyId = principal?.id ?? "anonymous";
  const slot = { end: () => stream.end() };
  if (!deps.streams.tryAdd(keyId, slot)) {
    throw new ApiHttpError("too_many_streams", `this key already holds the most open event streams allowed; close one first`);
  }
  const stream = openEventStream(
    { types, lastId },
    {
      feed: deps.feed,
      settings: deps.settings,
      timers: deps.timers,
      // Looked up again, not remembered: a revocation on another instance counts too.
      isRevoked: async () => (principal ? ((await deps.keys.findByHash(principal.hash))?.revokedAt ?? null) !== null : false),
      onEnd: () => deps.streams.remove(keyId, slot),
    },
  );
  return new Response(stream.body, {
    status: 200,
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store, no-transform", "x-accel-buffering": "no" },
  });
}

function parseTypes(raw: string | undefined): ReadonlySet<EventType> | undefined {
  if (raw === undefined) return undefined;
  if (raw.length > EVENT_TYPES_MAX_LENGTH) throw invalidParameter("types", `must be at most ${EVENT_TYPES_MAX_LENGTH} characters`);
  const names = raw.split(",").map((name) => name.trim());
  const unknown = names.find((name) => !isEventType(name));
  if (unknown !== undefined) throw invalidParameter("types", `names an unknown event type "${safeEcho(unknown)}"`);
  return new Set(names as EventType[]);
}

function parseEventId(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (!EVENT_ID.test(raw.trim()) || !Number.isSafeInteger(Number(raw))) throw invalidParameter(name, "must be an event id (a non-negative integer)");
  return Number(raw);
}
