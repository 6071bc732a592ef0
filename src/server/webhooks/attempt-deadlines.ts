// The attempts under way, oldest first, each cut off once it has run for the timeout, and all of
// them at once when the sender is thrown away. One timer for all of them: a timer and an abort
// signal per attempt (AbortSignal.timeout, AbortSignal.any) cost more than the request itself
// at thousands of deliveries a second.

/** An attempt that can be cut off: `cut` is called at most once. */
export interface Cuttable {
  startedAt: number;
  cut(reason: "timeout" | "stopped"): void;
}

export interface DeadlineClock {
  /** Elapsed time (performance.now). */
  elapsedMs(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export class AttemptDeadlines {
  // All share one timeout, so insertion order is deadline order.
  readonly #running = new Set<Cuttable>();
  readonly #timeoutMs: number;
  readonly #clock: DeadlineClock;
  #timer: unknown;

  constructor(timeoutMs: number, clock: DeadlineClock) {
    this.#timeoutMs = timeoutMs;
    this.#clock = clock;
  }

  add(attempt: Cuttable): void {
    this.#running.add(attempt);
    if (this.#timer === undefined) this.#arm(this.#timeoutMs);
  }

  delete(attempt: Cuttable): void {
    this.#running.delete(attempt);
  }

  /** Cuts off every attempt under way (and ends the timer). */
  cutAll(): void {
    const running = [...this.#running];
    this.#running.clear();
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const attempt of running) attempt.cut("stopped");
  }

  #arm(ms: number): void {
    this.#timer = this.#clock.setTimeout(() => this.#sweep(), Math.max(1, ms));
  }

  #sweep(): void {
    this.#timer = undefined;
    const now = this.#clock.elapsedMs();
    for (const attempt of this.#running) {
      const left = attempt.startedAt + this.#timeoutMs - now;
      if (left > 0) return this.#arm(left);
      this.#running.delete(attempt);
      attempt.cut("timeout");
    }
  }
}
