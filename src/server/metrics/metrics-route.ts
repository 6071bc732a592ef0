// `--metrics-token`: /metrics on the main port, for scrapers that can only reach that one, behind
// a bearer token of its own (never an API key: a scraper needs no rights over pets or keys).
// Wrong tokens are counted per client address (METRICS_TOKEN_ATTEMPTS): past the bound every
// attempt is a 429, the right token included, so the token cannot be guessed at any speed.
import { createHash, timingSafeEqual } from "node:crypto";
import type { H3Event } from "h3";
import { METRICS_TOKEN_ATTEMPTS } from "../../contract/limits.js";
import { rateLimitHeaders } from "../../limits/headers.js";
import type { Decision, RateLimiter } from "../../limits/rate-limiter.js";
import { ApiHttpError } from "../errors.js";
import { clientBucket } from "../internal/client-bucket.js";
import type { TrustProxy } from "../internal/client-ip.js";
import type { Scrape } from "./metrics-listener.js";

export interface MetricsRoute {
  token: string;
  scrape: Scrape;
}

/** Where wrong tokens are counted: the server's limiter, under `metrics-token:<client address>`. */
export interface TokenAttempts {
  limiter: RateLimiter;
  now: () => number;
  trustProxy: TrustProxy | undefined;
}

/** The exposition text to the right token; 404 when the route is off, 401 otherwise, 429 past the bound. */
export async function serveMetrics(event: H3Event, route: MetricsRoute | undefined, attempts?: TokenAttempts): Promise<Response> {
  if (!route) throw new ApiHttpError("not_found", "no such resource: metrics are not served on this port");
  const subject = `metrics-token:${clientBucket(event, attempts?.trustProxy)}`;
  if (attempts && (await spent(attempts, subject))) {
    // Counted as a refusal, so that a client that keeps on is banned.
    const decision = await attempts.limiter.consume(subject, METRICS_TOKEN_ATTEMPTS);
    if (!decision.allowed) throw refused(decision, attempts.now());
  }
  const sent = /^Bearer +(\S+) *$/i.exec(event.req.headers.get("authorization") ?? "")?.[1];
  if (sent === undefined || !sameSecret(sent, route.token)) {
    const decision = await attempts?.limiter.consume(subject, METRICS_TOKEN_ATTEMPTS);
    if (decision && !decision.allowed) throw refused(decision, attempts!.now());
    throw new ApiHttpError("unauthorized", "GET /metrics needs the header Authorization: Bearer <metrics token>", {
      "www-authenticate": 'Bearer realm="petstore-metrics"',
      ...(decision ? Object.fromEntries(rateLimitHeaders(decision, attempts!.now())) : {}),
    });
  }
  const { body, contentType } = await route.scrape();
  return new Response(body, { status: 200, headers: { "content-type": contentType } });
}

/** Whether this client has no wrong attempt left (or is banned): then even the right token is refused. */
async function spent(attempts: TokenAttempts, subject: string): Promise<boolean> {
  const usage = await attempts.limiter.peek(subject, METRICS_TOKEN_ATTEMPTS);
  return usage.bannedUntil !== null || usage.windows.some((window) => window.remaining <= 0);
}

/** The 429 of a client past the bound, with the rate-limit headers and Retry-After. */
function refused(decision: Extract<Decision, { allowed: false }>, now: number): ApiHttpError {
  const message = `too many wrong metrics tokens from this address; retry in ${decision.retryAfter} s`;
  return new ApiHttpError(decision.reason, message, Object.fromEntries(rateLimitHeaders(decision, now)));
}

/** Compares digests, so neither the length nor the content leaks through timing. */
function sameSecret(sent: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(sent), digest(expected));
}
