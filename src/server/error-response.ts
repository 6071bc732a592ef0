import type { H3Event, HTTPError } from "h3";
import type { ErrorBody, ErrorCode } from "../contract/values.js";
import { StorageUnavailableError } from "../store/errors.js";
import { ApiHttpError, storageUnavailable } from "./errors.js";
import { safeEcho } from "./internal/query.js";
import { redactSecrets } from "./keys/secrets.js";
import type { ServerLogger } from "./request-log.js";

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: "invalid_parameter",
  404: "not_found",
  405: "method_not_allowed",
  413: "payload_too_large",
  415: "unsupported_media_type",
};

/**
 * The single error path: every error, ours or h3's, becomes the Error body with the headers
 * already set for this response (rate limits, deprecation) plus the error's own.
 */
export function toErrorResponse(error: HTTPError, event: H3Event, logger: ServerLogger): Response {
  const api = toApiError(error, event, logger);
  const headers = new Headers(event.res.headers);
  if (api.headers) for (const [name, value] of api.headers) headers.set(name, value);
  headers.set("content-type", "application/json");
  const body: ErrorBody = { code: api.code, message: redactSecrets(api.message), status: api.status };
  return new Response(JSON.stringify(body), { status: api.status, headers });
}

function toApiError(error: HTTPError, event: H3Event, logger: ServerLogger): ApiHttpError {
  if (error instanceof ApiHttpError) return error;
  if (error.cause instanceof ApiHttpError) return error.cause;
  // A full disk, or PostgreSQL or Redis out of reach, on a write, a read or a rate-limit decision:
  // the store has logged it; the client is told to come back, never that something was stored.
  if (error.cause instanceof StorageUnavailableError) return storageUnavailable();
  const code = CODE_BY_STATUS[error.status];
  if (code && !error.unhandled) {
    const message =
      code === "not_found" ? `no such resource: ${event.req.method} ${safeEcho(event.url.pathname)}` : error.message;
    return new ApiHttpError(error.status, code, message);
  }
  logger.error(`${event.req.method} ${event.url.pathname} failed`, error.cause ?? error);
  return new ApiHttpError(500, "internal_error", "an unexpected error occurred; it has been logged on the server");
}
