import type { H3Event, HTTPError } from "h3";
import { STATUS_CODES } from "node:http";
import { API_PREFIX } from "../contract/constants.js";
import { errorJson, type ErrorCode } from "../contract/errors.js";
import { DOCS_PATH } from "./docs/page.js";
import { StorageUnavailableError } from "../store/errors.js";
import { ApiHttpError, storageUnavailable } from "./errors.js";
import { safeEcho } from "../support/safe-echo.js";
import { addSecurityHeaders } from "./internal/security-headers.js";
import { redactSecrets } from "./keys/secrets.js";
import type { ServerLogger } from "./request-log.js";

/** The code for h3's own errors (routing, its body readers), which carry only a status. */
const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: "invalid_parameter",
  404: "not_found",
  405: "method_not_allowed",
  413: "payload_too_large",
  415: "unsupported_media_type",
};

export const INTERNAL_ERROR_MESSAGE = "an unexpected error occurred; it has been logged on the server";

/**
 * The single error path: every error, ours or h3's, becomes the Error body with the headers
 * already set for this response (rate limits, deprecation) plus the error's own.
 */
export function toErrorResponse(error: HTTPError, event: H3Event, logger: ServerLogger): Response {
  const api = toApiError(error, event, logger);
  const headers = new Headers(event.res.headers);
  if (api.headers) for (const [name, value] of api.headers) headers.set(name, value);
  headers.set("content-type", "application/json");
  addSecurityHeaders(headers);
  const init = { status: api.status, statusText: STATUS_CODES[api.status], headers };
  return new Response(errorJson(api.code, redactSecrets(api.message)), init);
}

function toApiError(error: HTTPError, event: H3Event, logger: ServerLogger): ApiHttpError {
  if (error instanceof ApiHttpError) return error;
  if (error.cause instanceof ApiHttpError) return error.cause;
  // A full disk, or PostgreSQL or Redis out of reach, on a write, a read or a rate-limit decision:
  // the store has logged it; the client is told to come back, never that something was stored.
  if (error.cause instanceof StorageUnavailableError) return storageUnavailable();
  const code = CODE_BY_STATUS[error.status];
  if (code && !error.unhandled) {
    const message = code === "not_found" ? notFoundMessage(event) : error.message;
    return new ApiHttpError(code, message);
  }
  logger.error(`${event.req.method} ${event.url.pathname} failed`, error.cause ?? error);
  return new ApiHttpError("internal_error", INTERNAL_ERROR_MESSAGE);
}

/**
 * A path outside the API (`/` in a browser, `/pets` without its prefix) also says where the API
 * and its reference are, in the Error body a script expects.
 */
function notFoundMessage(event: H3Event): string {
  const { pathname } = event.url;
  const missing = `no such resource: ${event.req.method} ${safeEcho(pathname)}`;
  if (pathname === API_PREFIX || pathname.startsWith(`${API_PREFIX}/`)) return missing;
  return `${missing}. The API is under ${API_PREFIX} (e.g. GET ${API_PREFIX}/pets, with a key); its reference is at ${DOCS_PATH}`;
}
