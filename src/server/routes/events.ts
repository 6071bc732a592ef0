// GET /v1/events: the changes of the store as Server-Sent Events (see src/contract/events.ts).
import { HTTPResponse, type H3Event } from "h3";
import { isEventType, type EventType } from "../../contract/events.js";
import { EVENT_TYPES_MAX_LENGTH } from "../../contract/limits.js";
import { queryParameters } from "../../contract/routes.js";
import type { EventFeed } from "../../store/event-feed.js";
import type { ServerLogger } from "../request-log.js";
import { ApiHttpError, invalidParameter } from "../errors.js";
import { EventFanOut } from "../events/event-fan-out.js";
import { EventStream, type EventStreamSettings, type StreamTimers } from "../events/event-stream.js";
import type { StreamRegistry } from "../events/stream-registry.js";
import type { CredentialEnded } from "../events/stream-credential.js";
import { readQuery, safeEcho } from "../internal/query.js";

const PARAMETERS = queryParameters("streamEvents") as Array<"types" | "lastEventId">;
const EVENT_ID = /^(0|[1-9]\d{0,15})$/;

export interface EventRouteDeps {
  feed: EventFeed;
  streams: StreamRegistry;
  /** Whether a stream's credential has stopped working (see streamCredentialCheck). */
  credentialEnded: CredentialEnded;
  settings: EventStreamSettings;
  timers: StreamTimers;
  /** Where a stream cut for a slow consumer is told. */
  logger?: Pick<ServerLogger, "warn">;
}

const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store, no-transform", "x-accel-buffering": "no" };

// One fan-out per registry (that is, per server), made on its first stream.
const fanOuts = new WeakMap<StreamRegistry, EventFanOut>();

function fanOutOf(deps: EventRouteDeps): EventFanOut {
  let found = fanOuts.get(deps.streams);
  if (!found) fanOuts.set(deps.streams, (found = new EventFanOut(deps.feed, deps.settings, deps.timers)));
  return found;
}

/**
 * streamEvents: validates, takes one of the key's stream slots, and answers with the stream: an
 * HTTPResponse whose body srvx pipes to the socket (see EventStream), with no web stream between.
 * A HEAD gets the same head and nothing else: no slot, no stream, nothing held after it.
 */
export function streamEvents(event: H3Event, deps: EventRouteDeps): HTTPResponse {
  const query = readQuery(event.url, PARAMETERS);
  const types = parseTypes(query.types);
  const lastId = parseEventId("Last-Event-ID", event.req.headers.get("last-event-id") ?? undefined) ?? parseEventId("lastEventId", query.lastEventId);
  if (event.req.method === "HEAD") return new HTTPResponse(null, { status: 200, headers: SSE_HEADERS });
  const principal = event.context.principal;
  const hash = event.context.credentialHash ?? principal?.hash;
  const keyId = principal?.id ?? "anonymous";
  const slot = { end: () => stream.end() };
  if (!deps.streams.tryAdd(keyId, slot)) {
    throw new ApiHttpError("too_many_streams", `this key already holds the most open event streams allowed; close one first`);
  }
  const stream = new EventStream(
    { types, lastId },
    {
      hub: fanOutOf(deps),
      keyId,
      credential: `${keyId} ${hash ?? ""}`,
      isRevoked: () => (principal && hash ? deps.credentialEnded(principal, hash) : Promise.resolve(false)),
      onEnd: () => deps.streams.remove(keyId, slot),
      onCut: (unsentBytes) =>
        deps.logger?.warn(`event stream cut: its client left ${unsentBytes} bytes unread (the limit is ${deps.settings.maxUnsentBytes}); it can resume with Last-Event-ID`, {
          keyId,
          unsentBytes,
        }),
    },
  );
  return new HTTPResponse(stream, { status: 200, headers: SSE_HEADERS });
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
