// Sends only what the key's quota can serve, as the server's own rate-limit headers say, so a
// sole client of a key never receives a 429: when the window is spent it waits for the reset.
// Concurrency grows by one with each success, up to the ceiling, and halves on a refusal or a
// failure (additive increase, multiplicative decrease), always within the quota left.
import type { ResponseHeaders } from "../../http.js";

export interface PacerDeps {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Told before each wait for the window, with how long it lasts. */
  onWait: (ms: number, reason: string) => void;
}

/** Margin after a reset, `t=` is whole seconds, so a request never lands a moment before the server's window turns. */
const RESET_MARGIN_MS = 1000;

export class QuotaPacer {
  #limit = 1;
  #inFlight = 0;
  /** Requests we may still send in this window; unknown (Infinity) until the first answer. */
  #available = 1;
  #resetAt: number | undefined;
  #blockedUntil = 0;
  #waiters: (() => void)[] = [];
  #pausing: Promise<void> | undefined;

  constructor(
    private readonly ceiling: number,
    private readonly deps: PacerDeps,
  ) {}

  /** Resolves when one more request may go; the caller must call `settle` once it is answered. */
  async acquire(): Promise<void> {
    for (;;) {
      const now = this.deps.now();
      if (this.#blockedUntil > now) {
        await this.#pause(this.#blockedUntil - now, "the server asked to wait (Retry-After)");
        continue;
      }
      if (this.#available <= 0 && this.#inFlight === 0) {
        const wait = this.#resetAt === undefined ? 1000 : Math.max(0, this.#resetAt - now) + RESET_MARGIN_MS;
        // The new window's size is learnt from the next answer: one request goes alone first.
        await this.#pause(wait, "the key's quota is spent until its window resets", () => {
          this.#available = 1;
          this.#resetAt = undefined;
        });
        continue;
      }
      if (this.#available > 0 && this.#inFlight < this.#limit) {
        this.#available--;
        this.#inFlight++;
        return;
      }
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /** One request answered (or failed): its headers, and whether it was refused or failed. */
  settle(headers: ResponseHeaders | undefined, outcome: "ok" | "refused" | "failed", retryAfterMs?: number): void {
    this.#inFlight--;
    if (headers !== undefined) this.#learn(headers);
    if (outcome === "ok") this.#limit = Math.min(this.ceiling, this.#limit + 1);
    else this.#limit = Math.max(1, Math.floor(this.#limit / 2));
    if (retryAfterMs !== undefined) this.#blockedUntil = Math.max(this.#blockedUntil, this.deps.now() + retryAfterMs);
    for (const wake of this.#waiters.splice(0)) wake();
  }

  get concurrency(): number {
    return this.#limit;
  }

  /**
   * The tightest window's remaining count and reset, from `RateLimit` (relative seconds: no clock
   * skew) or else `X-RateLimit-*`. Answers in flight may not be counted yet: subtract them.
   */
  #learn(headers: ResponseHeaders): void {
    const window = tightestWindow(headers, this.deps.now());
    if (window === undefined) return;
    const estimate = window.remaining - this.#inFlight;
    const newWindow = this.#resetAt === undefined || window.resetAt > this.#resetAt + 1000;
    this.#available = newWindow ? estimate : Math.min(this.#available, estimate);
    this.#resetAt = newWindow ? window.resetAt : Math.min(this.#resetAt ?? window.resetAt, window.resetAt);
  }

  /** One wait shared by every worker that finds the quota spent: said once, slept once. */
  async #pause(ms: number, reason: string, after?: () => void): Promise<void> {
    if (this.#pausing === undefined) {
      this.deps.onWait(ms, reason);
      this.#pausing = this.deps.sleep(ms).then(() => {
        this.#pausing = undefined;
        after?.();
      });
    }
    await this.#pausing;
  }
}

/** `RateLimit: "minute";r=59;t=42, "day";r=999;t=50000` -> the entry with the fewest left. */
export function tightestWindow(headers: ResponseHeaders, nowMs: number): { remaining: number; resetAt: number } | undefined {
  let best: { remaining: number; resetAt: number } | undefined;
  for (const entry of (headers["ratelimit"] ?? "").split(",")) {
    const r = /;\s*r=(\d+)/.exec(entry)?.[1];
    const t = /;\s*t=(\d+)/.exec(entry)?.[1];
    // A number too large to be exact is a broken header, not a window: skipped.
    if (r === undefined || t === undefined || !isExact(r) || !isExact(t)) continue;
    const window = { remaining: Number(r), resetAt: nowMs + Number(t) * 1000 };
    if (best === undefined || window.remaining < best.remaining) best = window;
  }
  if (best !== undefined) return best;
  const remaining = headers["x-ratelimit-remaining"];
  const reset = headers["x-ratelimit-reset"];
  if (remaining === undefined || reset === undefined || !/^\d+$/.test(remaining) || !/^\d+$/.test(reset)) return undefined;
  if (!isExact(remaining) || !isExact(reset)) return undefined;
  return { remaining: Number(remaining), resetAt: Number(reset) * 1000 };
}

/** Digits that read as an exact number of seconds or requests (below 2^53 / 1000). */
function isExact(digits: string): boolean {
  return Number.isSafeInteger(Number(digits) * 1000);
}
