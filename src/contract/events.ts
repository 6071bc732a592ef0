// The Server-Sent Events of GET /v1/events, shared by the server (which sends them) and the
// client (which follows them). Free of zod so `petstore events` loads nothing heavy.

/** Every kind of event a stream can carry, in the order the document lists them. */
export const EVENT_TYPES = ["pet.created", "pet.updated", "pet.deleted", "order.created", "order.updated", "webhook.disabled"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** A webhook endpoint whose every delivery failed for the retry window was disabled; only admin keys read it. */
export const WEBHOOK_DISABLED_EVENT = "webhook.disabled";

/** Sent first when the asked Last-Event-ID is older than the backlog: re-list, then follow. */
export const RESET_EVENT = "reset";

/** One change: `data` is the record after it (`{id}` for pet.deleted; the endpoint for webhook.disabled). */
export interface StoreEvent {
  type: EventType;
  /** Global to the store, increasing in the order the changes became durable. */
  id: number;
  /** ISO instant of the commit. */
  at: string;
  data: Record<string, unknown>;
}

/** The backlog a resume can replay from: at least this many events, or this much time, whichever keeps more. */
export const EVENT_BACKLOG = { events: 10_000, ms: 60 * 60 * 1000 } as const;

/** How long a browser waits before reconnecting (the `retry:` line), and the keep-alive period. */
export const EVENT_RETRY_MS = 2_000;
export const EVENT_KEEP_ALIVE_MS = 15_000;
/** Open streams one key may hold at once. */
export const MAX_STREAMS_PER_KEY = 5;
/** Bytes a consumer may leave unread before its stream is cut. */
export const MAX_UNSENT_BYTES = 1024 * 1024;

/** How long a ticket for a browser's EventSource (POST /events/tickets) opens streams. */
export const EVENT_TICKET_TTL_SECONDS = 60;
/** The shortest PETSTORE_TICKET_SECRET (which signs tickets) accepted: as long as a 192-bit secret in base64. */
export const TICKET_SECRET_MIN_LENGTH = 32;
/** `evt_<key id>.<expiry, Unix seconds>.<id, secret tag and HMAC-SHA256: 32 bytes in base64url>` */
export const EVENT_TICKET_PATTERN = "^evt_key_[0-9A-Za-z_]{1,40}\\.[0-9]{10}\\.[0-9A-Za-z_-]{43}$";

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
