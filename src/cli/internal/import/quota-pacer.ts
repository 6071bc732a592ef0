// Sends only what the key's quota can serve, as the server's own rate-limit headers say, so a
// sole client of a key never receives a 429: when the window is spent it waits for the reset.
// A wait longer than --max-wait is not begun: the pacer stops, saying which window and until when.
// Concurrency grows by one with each success, up to the ceiling, and halves on a refusal or a
// failure (additive increase, multiplicative decrease), always within the quota left.
import type { ResponseHeaders } from "../../http.js";
import { quotaWindows, tightest, type QuotaWindow } from "../rate-limit-windows.js";

export interface PacerDeps {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Told before each wait for the window, with how long it lasts. */
  onWait: (ms: number, reason: string) => void;
  /** The longest wait worth waiting (--max-wait); a longer one stops the pacer. */
  maxWaitMs: number;
}

/** Why the pacer stopped: a window spent (or a Retry-After) for longer than --max-wait. */
export interface QuotaStop {
  /** The spent window, as the last answer named it; undefined when no answer said. */
  window: QuotaWindow | undefined;
  /** Unix ms at which sending may go on. */
  resumeAt: number;
}

/** Margin after a reset, `t=` is whole seconds, so a request never lands a moment before the server's window turns. */
const RESET_MARGIN_MS = 1000;

export class QuotaPacer {
  #limit = 1;
  #inFlight = 0;
  /** Requests we may still send in this window; one, to learn the window, until the first answer. */
  #available = 1;
  /** The tightest window the answers told of; undefined until one did. */
  #window: QuotaWindow | undefined;
  #blockedUntil = 0;
  #waiters: (() => void)[] = [];
  #pausing: Promise<void> | undefined;
  #stopped = false;
  #wakeOnStop: (() => void) | undefined;
  readonly #onStop = new Promise<void>((resolve) => (this.#wakeOnStop = resolve));
  /** Set when the pacer stopped for the quota. */
  quotaStop: QuotaStop | undefined;

  constructor(
    private readonly ceiling: number,
    private readonly deps: PacerDeps,
  ) {}

  /**
   * Resolves true when one more request may go (the caller then calls `settle` once it is
   * answered), false once the pacer has stopped: by `stop()`, or for a wait past --max-wait.
   */
  async acquire(): Promise<boolean> {
    for (;;) {
      if (this.#stopped) return false;
      const now = this.deps.now();
      if (this.#blockedUntil > now) {
        await this.#pause(this.#blockedUntil - now, this.#blockedUntil, "the server asked to wait (Retry-After)");
        continue;
      }
      if (this.#available <= 0 && this.#inFlight === 0) {
        await this.#waitForReset(now);
        continue;
      }
      if (this.#available > 0 && this.#inFlight < this.#limit) {
        this.#available--;
        this.#inFlight++;
        return true;
      }
      await Promise.race([new Promise<void>((resolve) => this.#waiters.push(resolve)), this.#onStop]);
    }
  }

  /** One request answered (or failed): its headers, and whether it was refused or failed. */
  settle(headers: ResponseHeaders | undefined, outcome: "ok" | "refused" | "failed", retryAfterMs?: number): void {
    this.#inFlight--;
    const learnt = headers !== undefined && this.#learn(headers);
    // Nothing said about the quota (no answer, or one without the headers): this request's share
    // is given back rather than taken for a spent window.
    if (!learnt && this.#window === undefined) this.#available = Math.max(this.#available, 1);
    if (outcome === "ok") this.#limit = Math.min(this.ceiling, this.#limit + 1);
    else this.#limit = Math.max(1, Math.floor(this.#limit / 2));
    if (retryAfterMs !== undefined) this.#blockedUntil = Math.max(this.#blockedUntil, this.deps.now() + retryAfterMs);
    this.#wakeWaiters();
  }

  /** No more requests: every acquire, waiting or to come, resolves false. */
  stop(): void {
    this.#stopped = true;
    this.#wakeOnStop?.();
    this.#wakeWaiters();
  }

  get concurrency(): number {
    return this.#limit;
  }

  /** The window is spent: wait for its reset, then one request goes alone to learn the new one. */
  async #waitForReset(now: number): Promise<void> {
    const window = this.#window;
    // Nothing in flight: the fewest left any answer said is what is left. The estimate, which
    // counted requests in flight as spent, may have been short of it.
    if (window === undefined || window.remaining > 0) {
      this.#available = Math.max(1, window?.remaining ?? 1);
      return;
    }
    const reason = `the key's ${window.name === undefined ? "" : `${window.name} `}quota is spent until its window resets`;
    await this.#pause(Math.max(0, window.resetAt - now) + RESET_MARGIN_MS, window.resetAt, reason, () => {
      this.#available = 1;
      this.#window = undefined;
    });
  }

  /**
   * The tightest window's remaining count and reset. Answers in flight may not be counted yet:
   * subtract them. A window that resets later than the one known is a new window; within one,
   * the answer with the fewest left is kept (answers may arrive out of order).
   */
  #learn(headers: ResponseHeaders): boolean {
    const window = tightest(quotaWindows(headers, this.deps.now()));
    if (window === undefined) return false;
    const estimate = window.remaining - this.#inFlight;
    const known = this.#window;
    if (known === undefined || window.resetAt > known.resetAt + 1000) {
      this.#available = estimate;
      this.#window = window;
    } else {
      this.#available = Math.min(this.#available, estimate);
      if (window.remaining < known.remaining || window.resetAt < known.resetAt - 1000) this.#window = window;
    }
    return true;
  }

  /**
   * One wait shared by every worker that finds the quota spent: said once, slept once. A wait
   * until `until` that ends past --max-wait is not begun: the pacer stops instead.
   */
  async #pause(ms: number, until: number, reason: string, after?: () => void): Promise<void> {
    if (this.#pausing === undefined) {
      if (until - this.deps.now() > this.deps.maxWaitMs) {
        this.quotaStop = { window: this.#window, resumeAt: until };
        this.stop();
        return;
      }
      this.deps.onWait(ms, reason);
      this.#pausing = this.deps.sleep(ms).then(() => {
        this.#pausing = undefined;
        after?.();
      });
    }
    await Promise.race([this.#pausing, this.#onStop]);
  }

  #wakeWaiters(): void {
    for (const wake of this.#waiters.splice(0)) wake();
  }
}
