// When to retry a request, and how long to wait first. Pure: randomness and the clock come in.

/** The first wait of the exponential backoff, and the most any one backoff wait may be. */
const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 8_000;
/** A Retry-After longer than this is not waited for: we give up and say when to retry. */
export const MAX_RETRY_AFTER_MS = 60_000;

const RETRIED_GET_STATUSES = new Set([502, 503, 504]);

/** What one attempt produced, as far as the policy cares. */
export interface AttemptOutcome {
  /** The HTTP status, or undefined when the attempt failed without an answer. */
  status?: number;
  /** Set for failures that may pass (refused or reset connections), not for timeouts. */
  transient?: boolean;
  /** The server's Retry-After, in milliseconds from now. */
  retryAfterMs?: number;
}

/**
 * The wait before the next attempt, or undefined to stop. 429 is retried for every method;
 * GET also on transient connection failures and 502/503/504. Retry-After is obeyed, never
 * shortened; without it the wait is exponential backoff with full jitter.
 */
export function retryDelay(
  method: string,
  outcome: AttemptOutcome,
  attempt: number,
  policy: { retries: number; random: () => number },
): number | undefined {
  if (attempt >= policy.retries || !isRetryable(method, outcome)) return undefined;
  if (outcome.retryAfterMs !== undefined) {
    return outcome.retryAfterMs > MAX_RETRY_AFTER_MS ? undefined : outcome.retryAfterMs;
  }
  return backoffDelay(attempt, policy.random);
}

/** Full jitter: uniform in [0, min(cap, base * 2^attempt)). */
export function backoffDelay(attempt: number, random: () => number): number {
  return Math.floor(random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt));
}

/** Retry-After as delta-seconds or an HTTP date, in milliseconds from `nowMs`; undefined if absent or garbled. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // HTTP dates start with the day's name ("Tue, 01 Jan 2030 12:00:45 GMT").
  const at = /^[A-Za-z]/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

function isRetryable(method: string, outcome: AttemptOutcome): boolean {
  if (outcome.status === 429) return true;
  if (method !== "GET") return false;
  if (outcome.status === undefined) return outcome.transient === true;
  return RETRIED_GET_STATUSES.has(outcome.status);
}
