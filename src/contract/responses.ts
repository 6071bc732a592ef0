// The document's reusable response headers and error responses, as data: their names are the
// keys of these tables, so a route entry names them (typed) and nothing else lists them.
// openapi-responses.ts builds the document's objects from them.
import type { ErrorCode } from "./errors.js";
import { kibibytes, MAX_BODY_BYTES, MAX_HEADER_BYTES } from "./limits.js";

type JsonSchema = Record<string, unknown>;

export interface HeaderObject {
  description: string;
  required: boolean;
  schema: JsonSchema;
}

const integer = { type: "integer", format: "int64", minimum: 0, maximum: Number.MAX_SAFE_INTEGER };
/** A URL the server builds from the request's own origin, whose Host the 16 KiB head bounds. */
export const LINK_MAX_LENGTH = MAX_HEADER_BYTES + 256;
export const header = (description: string, schema: JsonSchema, required = true): HeaderObject => ({ description, required, schema });

/** components.headers every document has. Two describe `Link` (Link-Next, Link-Successor-Version): see wireName. */
export const HEADER_COMPONENTS = {
  "X-RateLimit-Limit": header("Requests allowed in the window with the fewest left (the minute on a tie).", integer),
  "X-RateLimit-Remaining": header("Requests left in that window, after this one.", integer),
  "X-RateLimit-Reset": header("Unix time, in seconds, at which that window resets.", integer),
  "RateLimit-Policy": header("Both windows (IETF draft-ietf-httpapi-ratelimit-headers): q requests per w seconds.", {
    type: "string",
    maxLength: 256,
    pattern: '^"\\w+";q=\\d+;w=\\d+(, "\\w+";q=\\d+;w=\\d+)*$',
    examples: ['"minute";q=60;w=60, "day";q=1000;w=86400'],
  }),
  RateLimit: header("Both windows now: r requests remaining, t seconds until the window resets.", {
    type: "string",
    maxLength: 256,
    pattern: '^"\\w+";r=\\d+;t=\\d+(, "\\w+";r=\\d+;t=\\d+)*$',
    examples: ['"minute";r=59;t=42, "day";r=999;t=50000'],
  }),
  "Retry-After": header("Whole seconds to wait before retrying.", integer),
  Location: header("Path of the created resource.", { type: "string", format: "uri-reference", maxLength: 64, examples: ["/v1/pets/1"] }),
  ETag: header(
    'Strong entity tag (RFC 9110). A pet\'s is `"pet-<id>-<revision>"`, an order\'s `"order-<id>-<revision>"`, and it changes with every update; a page\'s is a digest of its records\' ids and revisions and of where the next page starts, so it changes whenever the page does. Send it back in If-None-Match (GET) or If-Match (PATCH, DELETE).',
    { type: "string", maxLength: 64, pattern: '^"[!#-~]+"$', examples: ['"pet-1-3"'] },
  ),
  "Idempotent-Replayed": header(
    "Set when this is the stored answer to an earlier request with the same Idempotency-Key, given again: nothing was created this time.",
    { const: "true" },
    false,
  ),
  "Link-Next": header(
    'Set when more results follow: `<absolute URL of the next page>; rel="next"` (RFC 8288). Follow it rather than building a cursor.',
    { type: "string", maxLength: LINK_MAX_LENGTH, pattern: '^<[^>]+>; rel="next"$' },
    false,
  ),
  "WWW-Authenticate": header("The scheme to authenticate with (RFC 9110).", { const: 'Bearer realm="petstore"' }),
  // The same header on a 403 insufficient_scope: the challenge of RFC 6750 3.1.
  "WWW-Authenticate-Scope": header(
    'RFC 6750 3.1: `Bearer error="insufficient_scope", scope="<scope>"`, the scope this operation needs (for the event stream without pets:read nor orders:read, both, either of which would do).',
    { type: "string", maxLength: 128, pattern: '^Bearer error="insufficient_scope", scope="[a-z]+:[a-z]+( [a-z]+:[a-z]+)*"$', examples: ['Bearer error="insufficient_scope", scope="pets:write"'] },
  ),
  Allow: header("The methods this path accepts.", { type: "string", maxLength: 64, pattern: "^([A-Z]+(, [A-Z]+)*)?$", examples: ["GET, HEAD, POST"] }),
  "X-Request-Id": header(
    "The id of this request in the server's log: the request's own X-Request-Id when it is 1 to 128 characters of letters, digits and ._:@/+=-, else one the server made up. Quote it when reporting a problem.",
    { type: "string", maxLength: 128, pattern: "^[A-Za-z0-9._:@/+=-]{1,128}$" },
    // Sent on every answer of this server; optional in the document so that a proxy in front may drop it.
    false,
  ),
  // Security headers (src/server/internal/security-headers.ts), on every answer.
  // On every answer; optional in the document, as X-Request-Id, so that a proxy in front may rewrite headers.
  "X-Content-Type-Options": header("Always `nosniff`: the body is never to be read as another type than its Content-Type.", { const: "nosniff" }, false),
  "Cache-Control": header(
    "`no-store` on every answer except a public document asked for without a key: no cache keeps a caller's data. Conditional requests (If-None-Match) still answer 304.",
    { const: "no-store" },
    false,
  ),
  "Access-Control-Allow-Origin": header(
    "CORS: the request's Origin, sent only when the server runs with --cors-origin and that origin is one of them.",
    { type: "string", format: "uri", maxLength: 2048, examples: ["https://app.example"] },
    false,
  ),
  "Accept-Encoding": header(
    "On a 415 for an encoded body (RFC 7694): `identity`, the only content coding a request body may have.",
    { const: "identity" },
    false,
  ),
} satisfies Record<string, HeaderObject>;

/** components.headers present in every document. `Link-Next` is the `Link` of a next page. */
export type FixedHeaderName = keyof typeof HEADER_COMPONENTS;

/** Headers that mark a route by its table entry: deprecation, and the beta marker. */
export type MarkHeaderName = "Deprecation" | "Sunset" | "Link-Successor-Version" | "X-API-Stability";

export type HeaderName = FixedHeaderName | MarkHeaderName;

export interface ErrorResponseSpec {
  status: number;
  description: string;
  /** Defaults to every code documented with this status. */
  codes?: ErrorCode[];
  headers?: HeaderName[];
  /** Answers that can be given before the request was counted carry the rate-limit headers only sometimes. */
  rateLimitHeadersOptional?: boolean;
}

/** components.responses: every error an operation can answer, named once. */
export const ERROR_RESPONSES = {
  InvalidParameter: { status: 400, codes: ["invalid_parameter"], description: "A query, path or header parameter is unknown, repeated or invalid; the message names it." },
  InvalidBody: { status: 400, codes: ["invalid_json", "invalid_body"], description: "The body is not valid JSON, or breaks the schema; the message names the field and the rule." },
  InvalidParameterOrBody: {
    status: 400,
    codes: ["invalid_parameter", "invalid_json", "invalid_body"],
    description: "A query, path or header parameter is unknown, repeated or invalid, or the body is not valid JSON or breaks the schema; the message names which.",
  },
  Unauthorized: { status: 401, description: "The API key is missing, malformed, unknown or revoked.", headers: ["WWW-Authenticate"] },
  Forbidden: { status: 403, codes: ["forbidden"], description: "The operation needs an admin API key." },
  InsufficientScope: {
    status: 403,
    codes: ["insufficient_scope"],
    description:
      "The key lacks the scope this operation needs, which WWW-Authenticate names; nothing was changed. The request counts against the key's rate limit like any other.",
    headers: ["WWW-Authenticate-Scope"],
  },
  NotFound: { status: 404, description: "No such resource. Any path this document does not list answers this too." },
  PreconditionFailed: { status: 412, description: "If-Match names no current ETag of the pet or order; nothing was changed." },
  PetNotAvailable: { status: 409, codes: ["pet_not_available"], description: "The pet is not available (pending or sold): it cannot be ordered." },
  InvalidTransition: { status: 409, codes: ["invalid_transition"], description: "The order cannot move from its status to the one asked; nothing was changed." },
  PetHasOpenOrder: {
    status: 409,
    codes: ["pet_has_open_order"],
    description: "The pet has an open order (named in the message): it cannot be deleted nor change status until the order is delivered or cancelled.",
  },
  IdempotencyKeyInProgress: {
    status: 409,
    codes: ["idempotency_key_in_progress"],
    description: "The first request with this Idempotency-Key is still being answered; nothing was created. Retry: once it has finished, the retry gets its answer.",
  },
  PetNotAvailableOrKeyInProgress: {
    status: 409,
    codes: ["pet_not_available", "idempotency_key_in_progress"],
    description:
      "The pet is not available (pending or sold), or the first request with this Idempotency-Key is still being answered; nothing was created.",
  },
  IdempotencyKeyReused: {
    status: 422,
    codes: ["idempotency_key_reused"],
    description: "This Idempotency-Key came with another request (another body) within 24 hours; nothing was created. Use a fresh key for a new request.",
  },
  NotAcceptable: {
    status: 406,
    description: "The Accept header rules out what this operation answers; leave Accept out or allow its media type. The body is JSON all the same.",
  },
  MethodNotAllowed: { status: 405, description: "Answers a listed path called with a method it does not list.", headers: ["Allow"] },
  PayloadTooLarge: { status: 413, description: `The body is larger than ${kibibytes(MAX_BODY_BYTES)}.` },
  UnsupportedMediaType: {
    status: 415,
    description:
      "The body is not sent as a media type the operation accepts (application/json; for PATCH also application/merge-patch+json), in UTF-8 and uncompressed (no Content-Encoding).",
    headers: ["Accept-Encoding"],
  },
  TooManyRequests: {
    status: 429,
    codes: ["rate_limited", "key_banned", "too_many_streams", "injected_fault"],
    description: "Over the rate limit, or banned for repeated excess; wait Retry-After seconds. (`injected_fault`: a server started with --chaos, without the rate-limit headers.)",
    headers: ["Retry-After"],
    rateLimitHeadersOptional: true,
  },
  TooManyKeys: { status: 507, description: "The store holds the most keys it may (revoked ones included); nothing was created." },
  InternalError: {
    status: 500,
    codes: ["internal_error", "injected_fault"],
    description: "An unexpected error, logged on the server. (`injected_fault`: a server started with --chaos, without the rate-limit headers.)",
    rateLimitHeadersOptional: true,
  },
  StorageUnavailable: {
    status: 503,
    description:
      "The database cannot be written or reached right now, or the rate-limit store (Redis) cannot be reached; nothing was stored or changed. The rate-limit headers are missing when the rate-limit store is the part out of reach. (`injected_fault`: a server started with --chaos, without the rate-limit headers.)",
    headers: ["Retry-After"],
    rateLimitHeadersOptional: true,
  },
} satisfies Record<string, ErrorResponseSpec>;

/** components.responses: every error an operation can answer, e.g. "NotFound". */
export type ErrorResponseName = keyof typeof ERROR_RESPONSES;
