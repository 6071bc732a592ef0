// The event stream and its tickets (tag Meta). Handlers: src/server/routes/events.ts.
import { EVENT_BACKLOG, EVENT_KEEP_ALIVE_MS, EVENT_TICKET_PATTERN, EVENT_TICKET_TTL_SECONDS, EVENT_TYPES, MAX_STREAMS_PER_KEY } from "../events.js";
import { documentedText, eventId, eventTypes } from "../parameters.js";
import type { RouteEntry } from "../route-types.js";

const TICKET_MAX_LENGTH = 120;

export const EVENT_ROUTES = [
  {
    operationId: "streamEvents",
    method: "GET",
    path: "/events",
    access: "key",
    scope: "events:read",
    ticket: true,
    stability: "stable",
    request: {
      query: {
        types: eventTypes().describe(`Comma-separated event types to receive (${EVENT_TYPES.join(", ")}); all when absent.`),
        lastEventId: eventId().describe("Resume after this event id, for clients that cannot send the Last-Event-ID header."),
        // Checked by the guard, which opens the stream with it: a ticket of another form is a 401 there.
        ticket: documentedText(TICKET_MAX_LENGTH, EVENT_TICKET_PATTERN).describe(
          `Instead of Authorization, for a browser's EventSource (which cannot send headers): a ticket from POST /events/tickets, for one request within ${EVENT_TICKET_TTL_SECONDS} s. Never put the API key itself in a URL.`,
        ),
      },
      headers: {
        "Last-Event-ID": eventId().describe(
          `Resume after this event id: the events after it are replayed from the backlog (the last ${EVENT_BACKLOG.events} events or the last hour, ` +
            "whichever holds more), then the stream goes live. An id older than the backlog gets `event: reset` first: list again.",
        ),
      },
    },
    doc: {
      tag: "meta",
      summary: "Follow every change as Server-Sent Events",
      description:
        `A text/event-stream (WHATWG Server-Sent Events). Events: ${EVENT_TYPES.join(", ")}, and reset. Each has \`id:\` (an increasing integer, ` +
        "global to the store) and one `data:` line of JSON {type, id, at, data}, data being the record after the change ({id} for pet.deleted). " +
        `Sent after the change is durable, in durable order. A \`: keep-alive\` comment every ${EVENT_KEEP_ALIVE_MS / 1000} s. ` +
        `At most ${MAX_STREAMS_PER_KEY} open streams per key (429 too_many_streams); a revoked key's stream ends within a second.`,
      success: {
        status: 200,
        description: "The stream, open until the client leaves or the server stops.",
        mediaType: "text/event-stream",
        // No `type: string`: a stream open for hours is no string with a length; its syntax is SSE's.
        schema: { description: "event: <type>\\nid: <event id>\\ndata: {\"type\":...,\"id\":...,\"at\":...,\"data\":{...}}" },
      },
          },
  },
  {
    operationId: "createEventTicket",
    method: "POST",
    path: "/events/tickets",
    access: "key",
    scope: "events:read",
    stability: "stable",
    doc: {
      tag: "meta",
      summary: "A short-lived ticket to open the event stream from a browser",
      description:
        `A browser's EventSource cannot send Authorization: open \`GET /events?ticket=<ticket>\` instead. The ticket opens one event stream ` +
        `of this key, once, within ${EVENT_TICKET_TTL_SECONDS} s: the first request that presents it spends it, whatever its answer (reconnect with a new ticket and lastEventId). ` +
        `The stream ends, as the ticket stops working, when the secret it was asked with does (revoked, expired, rotated past its grace) or the key is banned. No body: one sent is a 400.`,
      errors: ["InvalidBody"],
      success: {
        status: 200,
        description: "The ticket.",
        schema: {
          type: "object",
          properties: {
            ticket: { type: "string", maxLength: TICKET_MAX_LENGTH, pattern: EVENT_TICKET_PATTERN },
            expiresAt: { type: "string", format: "date-time", maxLength: 40, description: "When it stops opening streams." },
          },
          required: ["ticket", "expiresAt"],
          additionalProperties: false,
        },
      },
    },
  },
] as const satisfies readonly RouteEntry[];
