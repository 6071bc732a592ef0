// Every error code of the API once: its one HTTP status and what it means. The Error body of
// every answer, whoever sends it (the guard, a handler, the transport layer, the listener), is
// built by errorBody/errorJson below. Kept free of zod so the client can import it at start-up.
import { MAX_STREAMS_PER_KEY } from "./events.js";
import { DEFAULT_DEADLINES, hours, MAX_KEYS, IDEMPOTENCY_TTL_MS, kibibytes, MAX_BODY_BYTES, MAX_HEADER_BYTES, seconds } from "./limits.js";

export const ERROR_CODES = [
  "invalid_parameter",
  "invalid_json",
  "invalid_body",
  "unsupported_media_type",
  "payload_too_large",
  "unauthorized",
  "forbidden",
  "insufficient_scope",
  "not_found",
  "method_not_allowed",
  "not_acceptable",
  "precondition_failed",
  "pet_not_available",
  "invalid_transition",
  "pet_has_open_order",
  "idempotency_key_in_progress",
  "idempotency_key_reused",
  "rate_limited",
  "key_banned",
  "too_many_streams",
  "too_many_keys",
  "storage_unavailable",
  "internal_error",
  "malformed_request",
  "request_timeout",
  "headers_too_large",
  "injected_fault",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorCodeDoc {
  status: number;
  /** The statuses it may come with besides `status` (an injected fault's is the spec's). */
  otherStatuses?: readonly number[];
  meaning: string;
}

const { headersMs, requestMs } = DEFAULT_DEADLINES;

/** What each error code means and the one HTTP status it comes with. */
export const ERROR_CODE_DOCS: Readonly<Record<ErrorCode, ErrorCodeDoc>> = {
  invalid_parameter: {
    status: 400,
    meaning: "A query, path or header parameter (Idempotency-Key) is unknown, repeated or invalid; the message names it.",
  },
  invalid_json: { status: 400, meaning: "The body is empty, not valid UTF-8 or not valid JSON." },
  invalid_body: { status: 400, meaning: "The JSON body breaks the schema; the message names the field and the rule." },
  unsupported_media_type: {
    status: 415,
    meaning: "The body is not sent as application/json (or, for PATCH, application/merge-patch+json) in UTF-8 and uncompressed: another charset or any Content-Encoding is refused.",
  },
  payload_too_large: { status: 413, meaning: `The body is larger than ${kibibytes(MAX_BODY_BYTES)}.` },
  unauthorized: { status: 401, meaning: "The API key is missing, malformed, unknown or revoked." },
  forbidden: { status: 403, meaning: "The key is valid but the operation needs an admin key." },
  insufficient_scope: {
    status: 403,
    meaning:
      'The key is valid but lacks the scope the operation needs; `WWW-Authenticate: Bearer error="insufficient_scope", scope="..."` names it (RFC 6750). Nothing was changed.',
  },
  not_found: { status: 404, meaning: "No such resource, or no such path." },
  method_not_allowed: { status: 405, meaning: "The path exists but not with this method; Allow lists the methods." },
  not_acceptable: {
    status: 406,
    meaning: "The Accept header rules out what the operation answers (application/json; text/event-stream for GET /v1/events).",
  },
  precondition_failed: {
    status: 412,
    meaning:
      "If-Match names no current ETag of the pet or order (it changed since it was read), or If-None-Match is * or names the current one while it exists. Nothing was changed; read it again.",
  },
  pet_not_available: { status: 409, meaning: "The pet of a new order is not available; the message names its status." },
  invalid_transition: {
    status: 409,
    meaning: "An order cannot move from its status to the one asked (placed -> approved -> delivered; placed | approved -> cancelled); the message names both.",
  },
  pet_has_open_order: {
    status: 409,
    meaning: "The pet has an open (placed or approved) order, named in the message: it cannot be deleted nor change status until that order is delivered or cancelled.",
  },
  idempotency_key_in_progress: {
    status: 409,
    meaning: "A request with this Idempotency-Key is still being answered; retry once it has finished to get its answer again.",
  },
  idempotency_key_reused: {
    status: 422,
    meaning: `This Idempotency-Key was used within ${hours(IDEMPOTENCY_TTL_MS)} for another request (another body, path or query); nothing was created.`,
  },
  rate_limited: { status: 429, meaning: "A rate-limit window is exhausted; wait Retry-After seconds, back off exponentially." },
  key_banned: { status: 429, meaning: "Too many requests over the limit: the key (or IP) is banned until Retry-After." },
  too_many_streams: { status: 429, meaning: `The key already holds ${MAX_STREAMS_PER_KEY} open event streams (GET /v1/events); close one first.` },
  too_many_keys: { status: 507, meaning: `The store already holds ${MAX_KEYS} API keys (revoked ones included), the most GET /keys lists; nothing was created.` },
  storage_unavailable: { status: 503, meaning: "The database cannot be written right now; nothing was stored. Retry later." },
  internal_error: { status: 500, meaning: "An unexpected error; it is logged on the server, never echoed." },
  malformed_request: {
    status: 400,
    meaning: "The request is not valid HTTP/1.1 (request line, method, headers, Host or body framing); the connection is closed.",
  },
  request_timeout: {
    status: 408,
    meaning: `The headers did not arrive within ${seconds(headersMs)}, or the whole request within ${seconds(requestMs)}; the connection is closed.`,
  },
  headers_too_large: {
    status: 431,
    meaning: `The request headers are larger than ${kibibytes(MAX_HEADER_BYTES)}; the connection is closed.`,
  },
  injected_fault: {
    status: 503,
    otherStatuses: [429, 500],
    meaning: "A fault injected on purpose by a server started with --chaos (for testing clients): 503, or 429 or 500 as the spec says; the request never reached the API.",
  },
};

/** The codes an error response with this status can carry, e.g. 429: rate_limited, key_banned. */
export function errorCodesFor(status: number): ErrorCode[] {
  return ERROR_CODES.filter((code) => ERROR_CODE_DOCS[code].status === status);
}

/** Whether a body with `code` may come with `status`: its status, or one of its others. */
export const allowsStatus = (code: ErrorCode, status: number): boolean =>
  ERROR_CODE_DOCS[code].status === status || (ERROR_CODE_DOCS[code].otherStatuses?.includes(status) ?? false);

/** The one status of a code, e.g. statusOf("key_banned") === 429. */
export const statusOf = (code: ErrorCode): number => ERROR_CODE_DOCS[code].status;

/** The Error body as the server writes it (schemas.ts checks it against ErrorSchema). */
export interface ServerErrorBody {
  code: ErrorCode;
  message: string;
  status: number;
}

/** The longest `message` of an Error body; a longer one is cut, so the document's maxLength holds. */
export const ERROR_MESSAGE_MAX_LENGTH = 1024;

/** The Error body: the one way any part of the server writes one. */
export function errorBody(code: ErrorCode, message: string): ServerErrorBody {
  const bounded = message.length > ERROR_MESSAGE_MAX_LENGTH ? `${message.slice(0, ERROR_MESSAGE_MAX_LENGTH - 1)}…` : message;
  return { code, message: bounded, status: statusOf(code) };
}

/** The Error body as JSON text, for answers written without h3 (guard, transport, listener). */
export function errorJson(code: ErrorCode, message: string): string {
  return JSON.stringify(errorBody(code, message));
}
