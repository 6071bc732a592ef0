// The timed save shared by the rate-limit counters (memory limiter) and PostgreSQL's key last-use
// times: state that changes on every request is written at most once per interval, never per
// request, and a storage outage is reported once rather than every interval.
import { messageOf } from "./error-text.js";

export interface PeriodicSaverOptions {
  /** Writes the current state; saves never overlap (each waits for the one before). */
  save: () => Promise<void>;
  intervalMs: number;
  /** Told when a timed save fails, once per outage: not again until a save has succeeded. */
  warn: (message: string) => void;
  /** Begins the warning, e.g. "cannot save the rate-limit counters"; the error's message follows. */
  what: string;
}

/**
 * Runs `save` once per interval while there are changes (`schedule()` after each), and on demand
 * (`flush()`, at close). The timer never keeps the process alive.
 *
 * @example const saver = new PeriodicSaver({ save, intervalMs: 1_000, warn, what: "cannot save the counters" })
 */
export class PeriodicSaver {
  readonly #options: PeriodicSaverOptions;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #saves: Promise<void> = Promise.resolve();
  #failing = false;

  constructor(options: PeriodicSaverOptions) {
    this.#options = options;
  }

  /** Asks for a save within one interval; does nothing when one is already due. */
  schedule(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(this.#onTimer, this.#options.intervalMs);
    this.#timer.unref();
  }

  /** Saves now, after any save under way; rejects with the save's error. The due timed save is cancelled. */
  flush(): Promise<void> {
    this.cancel();
    const run = this.#saves.then(this.#options.save);
    this.#saves = run.catch(() => undefined);
    return run;
  }

  /** Drops the due timed save, if any. */
  cancel(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  readonly #onTimer = (): void => {
    this.#timer = undefined;
    this.flush().then(
      () => {
        this.#failing = false;
      },
      (error: unknown) => {
        // What was not saved stays pending: the next change schedules a retry.
        if (!this.#failing) this.#options.warn(`${this.#options.what}: ${messageOf(error)}`);
        this.#failing = true;
      },
    );
  };
}
