// When to retry a request, and how long to wait first. Pure: randomness and the clock come in.

/** The first wait of the exponential backoff, and the most any one backoff wait may be. */
const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 8_000;
const RETRIED_STATUSES = new Set([502, 503, 504]);
/**
 * Methods safe to send twice after an answer that may have come after the work was done (a lost
 * connection, a 502/503/504). POST is not one yet: it carries an Idempotency-Key, but until the
 * server keeps those (issue 13), a repeated create could make a second pet.
 */
const REPEATABLE_METHODS = new Set(["GET"]);

/** What one attempt produced, as far as the policy cares. */
export interface AttemptOutcome {
  /** The HTTP status, or undefined when the attempt failed without an answer. */
  status?: number;
  /** Set for failures that may pass (refused or reset connections), not for timeouts. */
  transient?: boolean;
  /** The server's Retry-After, in milliseconds from now. */
  retryAfterMs?: number;
}

export interface RetryPolicy {
  retries: number;
  /** The most a command may wait in all (--max-wait); a wait that would pass it is not begun. */
  maxWaitMs: number;
  /** How long this request has already waited before earlier retries. */
  waitedMs: number;
  random: () => number;
}

/**
 * The wait before the next attempt, or undefined to stop. 429 is retried for every method (the
 * request was refused, nothing was done); GET also on transient connection failures and
 * 502/503/504. Retry-After is obeyed, never shortened: when it would take the total wait past
 * --max-wait we stop at once and say when to retry. Backoff (exponential, full jitter) is cut
 * to what is left of --max-wait.
 */
export function retryDelay(method: string, outcome: AttemptOutcome, attempt: number, policy: RetryPolicy): number | undefined {
  if (attempt >= policy.retries || !isRetryable(method, outcome)) return undefined;
  const left = policy.maxWaitMs - policy.waitedMs;
  if (outcome.retryAfterMs !== undefined) return outcome.retryAfterMs > left ? undefined : outcome.retryAfterMs;
  const backoff = backoffDelay(attempt, policy.random);
  return left <= 0 ? undefined : Math.min(backoff, left);
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
  if (!REPEATABLE_METHODS.has(method)) return false;
  if (outcome.status === undefined) return outcome.transient === true;
  return RETRIED_STATUSES.has(outcome.status);
}
