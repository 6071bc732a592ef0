import { HTTPError } from "h3";
import { statusOf, type ErrorCode } from "../contract/errors.js";

/** The one error type handlers throw; the error handler turns it into {code, message, status}. */
export class ApiHttpError extends HTTPError {
  constructor(
    readonly code: ErrorCode,
    message: string,
    headers?: Record<string, string>,
  ) {
    // Each code has one status (src/contract/errors.ts), so the code alone decides it.
    super(message, { status: statusOf(code), headers });
  }
}

export const invalidParameter = (name: string, rule: string) => new ApiHttpError("invalid_parameter", `${name} ${rule}`);

export const invalidBody = (detail: string) => new ApiHttpError("invalid_body", `invalid body: ${detail}`);

export const notFound = (message: string) => new ApiHttpError("not_found", message);

export const methodNotAllowed = (method: string, allowed: readonly string[]) =>
  new ApiHttpError("method_not_allowed", `method ${method} is not allowed here; allowed: ${allowed.join(", ")}`, {
    allow: allowed.join(", "),
  });

export const storageUnavailable = () =>
  new ApiHttpError(
    "storage_unavailable",
    "the database or the rate-limit store cannot be written or reached right now; nothing was stored or changed",
    { "retry-after": "5" },
  );

export const idempotencyKeyInProgress = () =>
  new ApiHttpError(
    "idempotency_key_in_progress",
    "a request with this Idempotency-Key is still being answered; retry once it has finished to get its answer",
  );

export const idempotencyKeyReused = (detail: string) =>
  new ApiHttpError("idempotency_key_reused", `this Idempotency-Key was used for another request: ${detail}; nothing was created`);
