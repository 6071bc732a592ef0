// CORS for the origins named with --cors-origin (off by default): browser apps on those origins
// may call the API and read its headers. Other origins get no CORS header, so their pages cannot
// read any answer; a request without Origin (curl, servers) passes untouched.
import type { H3Event, Middleware } from "h3";
import type { PathRoutes } from "../contract/routes.js";
import type { HeaderList } from "../limits/headers.js";
import { requestHeader } from "./internal/request-header.js";

export interface CorsOptions {
  /** Serialised origins (`https://app.example.com`), as browsers send them in Origin. */
  origins: readonly string[];
}

/** The request headers a browser app may send beyond the CORS-safelisted ones. */
export const CORS_ALLOW_HEADERS = "Authorization, Content-Type, Idempotency-Key, If-Match, If-None-Match, Last-Event-ID, X-Request-Id";

/** The answer headers a browser app may read beyond the CORS-safelisted ones. */
export const CORS_EXPOSE_HEADERS = [
  "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit, RateLimit-Policy, Retry-After",
  "ETag, Link, Location, Deprecation, Sunset, Allow, WWW-Authenticate",
  "X-Request-Id, X-API-Stability, Idempotent-Replayed",
].join(", ");

/** How long a browser may reuse a preflight's answer: a changed --cors-origin takes effect within 10 minutes. */
export const CORS_MAX_AGE_SECONDS = 600;

/**
 * Runs before the guard: a preflight from an allowed origin is answered here, so it is never
 * counted against a rate limit and needs no key (browsers send none with it). Every other answer
 * to an allowed origin, errors and refusals included, gets Access-Control-Allow-Origin and
 * Access-Control-Expose-Headers; any answer to a request with an Origin gets `Vary: Origin`.
 */
export function createCors(options: CorsOptions): Middleware {
  const allowed = new Set(options.origins);
  return async (event, next) => {
    const origin = requestHeader(event, "origin");
    if (origin === null) return next();
    if (!allowed.has(origin)) return withHeaders(event, VARY_ONLY, next);
    const routes = event.context.matchedRoute?.meta as PathRoutes | undefined;
    if (event.req.method === "OPTIONS" && event.req.headers.has("access-control-request-method") && routes?.allow) {
      return preflight(origin, routes.allow);
    }
    return withHeaders(event, [["access-control-allow-origin", origin], ["access-control-expose-headers", CORS_EXPOSE_HEADERS], ...VARY_ONLY], next);
  };
}

const VARY_ONLY: HeaderList = [["vary", "Origin"]];

function preflight(origin: string, methods: readonly string[]): Response {
  return new Response(null, {
    status: 204,
    statusText: "No Content",
    headers: {
      "access-control-allow-origin": origin,
      "access-control-allow-methods": methods.join(", "),
      "access-control-allow-headers": CORS_ALLOW_HEADERS,
      "access-control-max-age": String(CORS_MAX_AGE_SECONDS),
      vary: "Origin",
    },
  });
}

/**
 * The headers onto whatever answer comes: set on the event first (a thrown error and a plain
 * result are built from those), and onto a Response the guard or a handler built itself.
 */
async function withHeaders(event: H3Event, headers: HeaderList, next: () => unknown): Promise<unknown> {
  for (const [name, value] of headers) setHeader(event.res.headers, name, value);
  const result = await next();
  if (result instanceof Response) for (const [name, value] of headers) setHeader(result.headers, name, value);
  return result;
}

/** Vary is a list other parts may add to (Accept-Encoding): Origin joins it once. */
function setHeader(target: Headers, name: string, value: string): void {
  if (name !== "vary") return target.set(name, value);
  const vary = target.get("vary");
  if (vary === null) target.set("vary", value);
  else if (!vary.split(",").some((item) => item.trim().toLowerCase() === "origin")) target.set("vary", `${vary}, ${value}`);
}
