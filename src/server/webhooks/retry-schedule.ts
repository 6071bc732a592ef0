// When a failed delivery is tried again: exponential backoff with jitter, a receiver's
// Retry-After honoured, and nothing past the retry window (then it has failed for good).

/** How long a delivery is retried by default (serve --webhook-retry-for): 3 days, as Stripe does. */
export const DEFAULT_WEBHOOK_RETRY_FOR_MS = 3 * 24 * 3600 * 1000;
const FIRST_RETRY_MS = 5_000;
/** Past this the backoff stops growing: a receiver down for a day is still tried every few hours. */
const MAX_RETRY_MS = 4 * 3600 * 1000;

export interface RetryInputs {
  /** Attempts made so far, the one that just failed included. */
  attempts: number;
  /** When the delivery was recorded (ms): the window runs from there. */
  createdAt: number;
  now: number;
  retryForMs: number;
  /** The receiver's Retry-After, in ms from now, when it sent one. */
  retryAfterMs?: number;
  /** Uniform in [0, 1). */
  random: () => number;
}

/**
 * When to try again, or null when the window is over. The backoff is 5 s doubled per attempt,
 * up to 4 h, with "equal jitter" (half fixed, half random) so that receivers that failed together
 * are not retried together; a longer Retry-After wins.
 * @example nextAttemptAt({ attempts: 1, createdAt: 0, now: 100, retryForMs: 3 * 86_400_000, random: () => 0 }) // 2_600
 */
export function nextAttemptAt(inputs: RetryInputs): number | null {
  const { attempts, createdAt, now, retryForMs, retryAfterMs } = inputs;
  const backoff = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(attempts - 1, 30));
  const jittered = backoff / 2 + (backoff / 2) * inputs.random();
  const delay = Math.max(jittered, retryAfterMs ?? 0);
  const end = createdAt + retryForMs;
  if (now >= end) return null;
  // The last try lands at the window's end rather than after it.
  return Math.min(now + delay, end);
}

/** Retry-After as seconds or an HTTP date, in ms from `now`; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
