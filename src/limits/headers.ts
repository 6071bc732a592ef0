// Rate-limit response headers from a Decision: the spec's X-RateLimit-* trio, the IETF fields of
// draft-ietf-httpapi-ratelimit-headers (RateLimit-Policy and RateLimit), and Retry-After on a 429.
import type { Decision, WindowState } from "./rate-limiter.js";

export type HeaderList = Array<[name: string, value: string]>;

/**
 * The headers for one response, named in lower case as they go out (HTTP/1.1 names are
 * case-insensitive, and srvx would lower-case them on every answer otherwise). `now` (ms since the epoch, the limiter's clock) turns each
 * window's resetAt into the draft's `t`, seconds until it resets.
 *
 * @example rateLimitHeaders(decision, now).forEach(([name, value]) => headers.set(name, value))
 */
export function rateLimitHeaders(decision: Decision, now: number): HeaderList {
  const windows = decision.windows;
  let closest: WindowState | undefined;
  let policy = "";
  let state = "";
  for (const window of windows) {
    // Strictly fewer: on a tie the earlier window (the minute) stays.
    if (closest === undefined || window.remaining < closest.remaining) closest = window;
    const separator = policy === "" ? "" : ", ";
    policy += `${separator}"${window.name}";q=${window.limit};w=${window.seconds}`;
    state += `${separator}"${window.name}";r=${window.remaining};t=${secondsLeft(window.resetAt, now)}`;
  }
  const headers: HeaderList = [];
  if (closest !== undefined) {
    headers.push(
      ["x-ratelimit-limit", String(closest.limit)],
      ["x-ratelimit-remaining", String(closest.remaining)],
      ["x-ratelimit-reset", String(closest.resetAt)],
      ["ratelimit-policy", policy],
      ["ratelimit", state],
    );
  }
  if (!decision.allowed) headers.push(["retry-after", String(decision.retryAfter)]);
  return headers;
}

function secondsLeft(resetAt: number, now: number): number {
  return Math.max(0, Math.ceil((resetAt * 1000 - now) / 1000));
}
