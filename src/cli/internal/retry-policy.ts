// When to retry a request, and how long to wait first. Pure: randomness and the clock come in.

/** The first wait of the exponential backoff, and the most any one backoff wait may be. */
const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 8_000;
/** A gateway's answers: the request may or may not have reached the API, and may pass. */
const RETRIED_STATUSES = new Set([502, 503, 504]);
/**
 * Methods whose second sending leaves the server as the first did (RFC 9110's idempotent
 * methods, as this API implements them): GET reads; PATCH is a JSON Merge Patch of absolute
 * values, so the pet ends the same however often it lands (with If-Match, a repeat that
 * follows a lost success answers 412, which the error then says may be our own change);
 * DELETE leaves the pet gone (a repeat after a lost 204 answers 404, which `pets delete`
 * reports as deleted). POST is repeatable only with an Idempotency-Key (see isRepeatable).
 */
const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "PUT", "PATCH", "DELETE"]);

/** The parts of a request the policy looks at. */
export interface RetriedRequest {
  method: string;
  /** Lower-case names, as http.ts sends them. */
  headers?: Record<string, string>;
}

/** What one attempt produced, as far as the policy cares. */
export interface AttemptOutcome {
  /** The HTTP status, or undefined when the attempt failed without an answer. */
  status?: number;
  /**
   * Set for failures without an answer that may pass: refused or reset connections, and time
   * limits (the server may be slow for a moment). Not for a host that does not resolve.
   */
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
 * The wait before the next attempt, or undefined to stop. 429 is retried for every request (it
 * was refused, nothing was done); a repeatable request (isRepeatable) also after a transient
 * failure without an answer, a 502/503/504, and a 409 that says its Idempotency-Key is still
 * being answered. Retry-After is obeyed, never shortened: when it would take the total wait
 * past --max-wait we stop at once and say when to retry. Backoff (exponential, full jitter) is
 * cut to what is left of --max-wait.
 */
export function retryDelay(request: RetriedRequest, outcome: AttemptOutcome, attempt: number, policy: RetryPolicy): number | undefined {
  if (attempt >= policy.retries || !isRetryable(request, outcome)) return undefined;
  const left = policy.maxWaitMs - policy.waitedMs;
  if (outcome.retryAfterMs !== undefined) return outcome.retryAfterMs > left ? undefined : outcome.retryAfterMs;
  const backoff = backoffDelay(attempt, policy.random);
  return left <= 0 ? undefined : Math.min(backoff, left);
}

/**
 * Whether sending the request again cannot do the work twice: an idempotent method, or a POST
 * with an Idempotency-Key, which the server answers once and replays after that. A POST
 * without one is never repeated after a lost answer: the create may have happened.
 */
export function isRepeatable(request: RetriedRequest): boolean {
  return IDEMPOTENT_METHODS.has(request.method) || hasIdempotencyKey(request);
}

/** Full jitter: uniform in [0, min(cap, base * 2^attempt)). */
export function backoffDelay(attempt: number, random: () => number): number {
  return Math.floor(random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt));
}

/** The longest Retry-After taken literally: 100 years, far past any --max-wait. */
const MAX_RETRY_AFTER_S = 100 * 365 * 24 * 3600;

/** Retry-After as delta-seconds or an HTTP date, in milliseconds from `nowMs`; undefined if absent or garbled. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  // Capped, so a server's 400-digit value is a finite wait (past any --max-wait) and not Infinity.
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed), MAX_RETRY_AFTER_S) * 1000;
  // HTTP dates start with the day's name ("Tue, 01 Jan 2030 12:00:45 GMT").
  const at = /^[A-Za-z]/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

function isRetryable(request: RetriedRequest, outcome: AttemptOutcome): boolean {
  if (outcome.status === 429) return true;
  if (!isRepeatable(request)) return false;
  if (outcome.status === undefined) return outcome.transient === true;
  // draft-ietf-httpapi-idempotency-key-header: 409 while the first request with the key runs.
  if (outcome.status === 409) return hasIdempotencyKey(request);
  return RETRIED_STATUSES.has(outcome.status);
}

function hasIdempotencyKey(request: RetriedRequest): boolean {
  return request.headers?.["idempotency-key"] !== undefined;
}
