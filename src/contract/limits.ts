// The limits the server applies and the document and error messages quote: one number each, so
// what a client reads is what the server does.

/** The largest request body accepted, enforced while the body streams in. */
export const MAX_BODY_BYTES = 64 * 1024;

/** The largest request head (request line and headers) Node's parser accepts: its maxHeaderSize. */
export const MAX_HEADER_BYTES = 16 * 1024;

/** How long the answer to an Idempotency-Key is kept and given again (draft-ietf-httpapi-idempotency-key-header). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** The longest Idempotency-Key accepted, in characters (visible ASCII only). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/**
 * The most API keys a store holds, revoked ones included: GET /v1/keys answers them all at once,
 * so the list is bounded (507 too_many_keys beyond; revoked keys can be removed from the db).
 */
export const MAX_KEYS = 10_000;

/** The longest If-Match / If-None-Match accepted (a few dozen entity tags): 400 beyond. */
export const CONDITION_MAX_LENGTH = 1024;

/** The longest cursor the server writes into a Link (base64url); a longer one is no cursor of ours. */
export const CURSOR_MAX_LENGTH = 32;

/**
 * The longest cursor of a listing of pets: one in name order carries the last pet's folded name.
 * A name has at most 200 characters and a character folds to at most 12 UTF-8 bytes (U+1D160 to
 * 3 code points of 4), so with its mark, id and separator a cursor holds at most 2,418 bytes.
 */
export const PET_CURSOR_MAX_LENGTH = Math.ceil(((200 * 12 + 18) * 4) / 3);

/** The longest `types` of GET /v1/events: every type twice over, with spaces; 400 beyond. */
export const EVENT_TYPES_MAX_LENGTH = 256;

/**
 * The /docs files, per client address, apart from the anonymous limit (which a page load of
 * some seven files would use up): a bound of its own, far above what people reading the page ask.
 */
export const DOCS_LIMITS = { perMinute: 120, perDay: 2_000 } as const;

/** Wrong /metrics tokens a client address may send before it is refused (and, past as many again, banned). */
export const METRICS_TOKEN_ATTEMPTS = { perMinute: 10, perDay: 100 } as const;

/** How long a client may take; slow or stalled clients cannot hold a connection open for ever. */
export interface HttpDeadlines {
  /** From the first byte of a request to the end of its headers. */
  headersMs: number;
  /** From the first byte of a request to the end of its body. */
  requestMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveMs: number;
}

export const DEFAULT_DEADLINES: Readonly<HttpDeadlines> = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 };

/** @example kibibytes(65536) === "64 KiB" */
export const kibibytes = (bytes: number): string => `${bytes / 1024} KiB`;

/** @example seconds(10_000) === "10 s" */
export const seconds = (ms: number): string => `${ms / 1000} s`;

/** @example hours(86_400_000) === "24 h" */
export const hours = (ms: number): string => `${ms / 3_600_000} h`;
