import { HTTPError } from "h3";
import type { ErrorCode } from "../contract/values.js";

/** The one error type handlers throw; the error handler turns it into {code, message, status}. */
export class ApiHttpError extends HTTPError {
  constructor(
    status: number,
    readonly code: ErrorCode,
    message: string,
    headers?: Record<string, string>,
  ) {
    super(message, { status, headers });
  }
}

export const invalidParameter = (name: string, rule: string) =>
  new ApiHttpError(400, "invalid_parameter", `${name} ${rule}`);

export const invalidBody = (detail: string) => new ApiHttpError(400, "invalid_body", `invalid body: ${detail}`);

export const notFound = (message: string) => new ApiHttpError(404, "not_found", message);

export const methodNotAllowed = (method: string, allowed: readonly string[]) =>
  new ApiHttpError(405, "method_not_allowed", `method ${method} is not allowed here; allowed: ${allowed.join(", ")}`, {
    allow: allowed.join(", "),
  });

export const unauthorized = (message: string) =>
  new ApiHttpError(401, "unauthorized", message, { "www-authenticate": 'Bearer realm="petstore"' });

export const forbidden = (message: string) => new ApiHttpError(403, "forbidden", message);

export const storageUnavailable = () =>
  new ApiHttpError(
    503,
    "storage_unavailable",
    "the database or the rate-limit store cannot be written or reached right now; nothing was stored or changed",
    { "retry-after": "5" },
  );
