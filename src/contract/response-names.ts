// The names of the document's reusable headers and error responses. The route table refers to
// them and openapi-responses.ts describes them; naming them here keeps the table from importing
// the document's builder, which imports the table.

/** components.headers present in every document. `Link-Next` is the `Link` of a next page. */
export type FixedHeaderName =
  | "X-RateLimit-Limit"
  | "X-RateLimit-Remaining"
  | "X-RateLimit-Reset"
  | "RateLimit-Policy"
  | "RateLimit"
  | "Retry-After"
  | "Location"
  | "ETag"
  | "Idempotent-Replayed"
  | "Link-Next"
  | "WWW-Authenticate"
  | "Allow"
  | "X-Request-Id"
  | "X-Content-Type-Options"
  | "Cache-Control"
  | "Access-Control-Allow-Origin"
  | "Accept-Encoding";

/** Headers that mark a route by its table entry: deprecation, and the beta marker. */
export type MarkHeaderName = "Deprecation" | "Sunset" | "Link-Successor-Version" | "X-API-Stability";

export type HeaderName = FixedHeaderName | MarkHeaderName;

/** components.responses: every error an operation can answer. */
export type ErrorResponseName =
  | "InvalidParameter"
  | "InvalidBody"
  /** One 400 for an operation with both a path parameter and a body. */
  | "InvalidParameterOrBody"
  | "Unauthorized"
  | "Forbidden"
  | "NotFound"
  | "MethodNotAllowed"
  | "NotAcceptable"
  | "PreconditionFailed"
  /** 409: pet_not_available, invalid_transition or pet_has_open_order, narrowed per operation. */
  | "PetNotAvailable"
  | "InvalidTransition"
  | "PetHasOpenOrder"
  | "IdempotencyKeyInProgress"
  /** placeOrder's 409: the pet is not available, or its Idempotency-Key is in flight. */
  | "PetNotAvailableOrKeyInProgress"
  | "IdempotencyKeyReused"
  | "PayloadTooLarge"
  | "UnsupportedMediaType"
  | "TooManyRequests"
  | "TooManyKeys"
  | "InternalError"
  | "StorageUnavailable";
