// GET /v1/events: the changes of the store as Server-Sent Events (see src/contract/events.ts), and
// the tickets that open it from a browser (the operations of src/contract/operations/events.ts).
import { HTTPResponse, type H3Event } from "h3";
import type { EVENT_ROUTES } from "../../contract/operations/events.js";
import type { InputOf, Route } from "../../contract/routes.js";
import type { EventFeed } from "../../store/event-feed.js";
import type { ServerLogger } from "../request-log.js";
import { ApiHttpError } from "../errors.js";
import { EventFanOut } from "../events/event-fan-out.js";
import { EventStream, type EventStreamSettings, type StreamTimers } from "../events/event-stream.js";
import type { EventTickets } from "../events/event-tickets.js";
import { streamTypes } from "../events/stream-types.js";
import type { StreamRegistry } from "../events/stream-registry.js";
import type { HandlersFor } from "./register.js";
import { streamCredentialCheck, type CredentialEnded, type StreamCredentialDeps } from "../events/stream-credential.js";

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

export interface EventHandlersDeps extends StreamCredentialDeps {
  logger: ServerLogger;
  /** Signs and spends the tickets of POST /events/tickets. */
  tickets: EventTickets;
  /** The store's feed, the open streams and their timings; without (a test of other routes) there is no stream. */
  events?: Omit<EventRouteDeps, "credentialEnded">;
}

/** The handlers of the event stream and its tickets. */
export function eventHandlers(deps: EventHandlersDeps): HandlersFor<(typeof EVENT_ROUTES)[number]> {
  const credentialEnded = streamCredentialCheck(deps);
  return {
    streamEvents: (event, input) => {
      if (!deps.events) throw new ApiHttpError("not_found", "this server does not serve events");
      return streamEvents(event, input, { ...deps.events, credentialEnded, logger: deps.logger });
    },
    createEventTicket: (event) => {
      // The operation takes no body: one sent means the caller meant another call.
      const length = event.req.headers.get("content-length");
      if ((length !== null && length !== "0") || event.req.headers.has("transfer-encoding")) {
        throw new ApiHttpError("invalid_body", "POST /v1/events/tickets takes no body");
      }
      return deps.tickets.issue(event.context.principal!, event.context.credentialHash!, deps.now());
    },
  };
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
 * streamEvents: takes one of the key's stream slots and answers with the stream of the event
 * types its scopes may read: an HTTPResponse whose body srvx pipes to the socket (see
 * EventStream), with no web stream between. A HEAD gets the same head (or the same refusal) and
 * nothing else: no slot, no stream, nothing held after it.
 */
function streamEvents(event: H3Event, { query, headers }: InputOf<Route<"streamEvents">>, deps: EventRouteDeps): HTTPResponse {
  const lastId = headers["Last-Event-ID"] ?? query.lastEventId;
  const principal = event.context.principal;
  // The guard let only a key with events:read through; which events it reads is its other scopes'.
  const types = principal ? streamTypes(principal, query.types) : query.types;
  if (event.req.method === "HEAD") return new HTTPResponse(null, { status: 200, headers: SSE_HEADERS });
  const hash = event.context.credentialHash ?? principal?.hash;
  const keyId = principal?.id ?? "anonymous";
  const slot = { end: (last?: string) => stream.end(last) };
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
