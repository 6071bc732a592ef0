// Rate-limit response headers from a Decision: the spec's X-RateLimit-* trio, the IETF fields of
// draft-ietf-httpapi-ratelimit-headers (RateLimit-Policy and RateLimit), and Retry-After on a 429.
import type { Decision, WindowState } from "./rate-limiter.js";

export type HeaderList = Array<[name: string, value: string]>;

/**
 * The headers for one response, named in lower case as they go out (HTTP/1.1 names are
 * case-insensitive, and srvx would lower-case them on every answer otherwise). `now` (ms since
 * the epoch, the limiter's clock) turns each window's resetAt into the draft's `t`, seconds until
 * it resets.
 *
 * @example rateLimitHeaders(decision, now).forEach(([name, value]) => headers.set(name, value))
 */
export function rateLimitHeaders(decision: Decision, now: number): HeaderList {
  const windows = decision.allowed || decision.reason !== "key_banned" ? decision.windows : duringBan(decision.windows, decision.retryAfter, now);
  let closest: WindowState | undefined;
  let state = "";
  for (const window of windows) {
    // Strictly fewer: on a tie the earlier window (the minute) stays.
    if (closest === undefined || window.remaining < closest.remaining) closest = window;
    state += `${state === "" ? "" : ", "}"${window.name}";r=${window.remaining};t=${secondsLeft(window.resetAt, now)}`;
  }
  const headers: HeaderList = [];
  if (closest !== undefined) {
    headers.push(
      ["x-ratelimit-limit", String(closest.limit)],
      ["x-ratelimit-remaining", String(closest.remaining)],
      ["x-ratelimit-reset", String(closest.resetAt)],
      ["ratelimit-policy", policyOf(windows)],
      ["ratelimit", state],
    );
  }
  if (!decision.allowed) headers.push(["retry-after", String(decision.retryAfter)]);
  return headers;
}

/**
 * A ban refuses everything until it ends: no window has a request left, and each gives requests
 * again when the ban ends (rounded up to the second), or, if it is spent itself, when it resets.
 */
function duringBan(windows: readonly WindowState[], retryAfter: number, now: number): WindowState[] {
  const banEnds = Math.ceil(now / 1000) + retryAfter;
  return windows.map((window) => ({ ...window, remaining: 0, resetAt: window.remaining === 0 ? Math.max(window.resetAt, banEnds) : banEnds }));
}

// The policy is the same for every answer to one key: the last one is kept, and built again only
// when the windows' names, quotas or lengths differ (another key's limits).
let lastPolicy: { windows: Array<Pick<WindowState, "name" | "limit" | "seconds">>; text: string } = { windows: [], text: "" };

function policyOf(windows: readonly WindowState[]): string {
  const last = lastPolicy.windows;
  if (last.length === windows.length && windows.every((w, i) => w.name === last[i]!.name && w.limit === last[i]!.limit && w.seconds === last[i]!.seconds)) {
    return lastPolicy.text;
  }
  const text = windows.map((window) => `"${window.name}";q=${window.limit};w=${window.seconds}`).join(", ");
  lastPolicy = { windows: windows.map(({ name, limit, seconds }) => ({ name, limit, seconds })), text };
  return text;
}

function secondsLeft(resetAt: number, now: number): number {
  return Math.max(0, Math.ceil((resetAt * 1000 - now) / 1000));
}
