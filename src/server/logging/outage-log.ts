// A database or Redis that stops answering fails every request until it is back: one warning
// when that starts (with its cause) and one line when it ends, not a line per refused request.
import type { StorageUnavailableError } from "../../support/storage-unavailable.js";
import type { ServerLogger } from "../request-log.js";

interface Outage {
  since: number;
  /** Started by a write: only a later write proves it over (reads of a lowdb file never fail). */
  byWrite: boolean;
  refused: number;
}

export class OutageLog {
  readonly #logger: ServerLogger;
  readonly #now: () => number;
  readonly #open = new Map<string, Outage>();

  constructor(logger: ServerLogger, now: () => number) {
    this.#logger = logger;
    this.#now = now;
  }

  get active(): boolean {
    return this.#open.size > 0;
  }

  /** A request failed on `error`: logged when it opens an outage of its source, counted otherwise. */
  failed(error: StorageUnavailableError, write: boolean): void {
    const outage = this.#open.get(error.file);
    if (outage) {
      outage.refused++;
      return;
    }
    this.#open.set(error.file, { since: this.#now(), byWrite: write, refused: 1 });
    this.#logger.warn(`storage unavailable, answering 503 until it recovers: ${error.message}`, {
      source: error.file,
      cause: error.reason,
    });
  }

  /** A request that reached the engines succeeded: closes the outages it proves over. */
  succeeded(write: boolean): void {
    for (const [source, outage] of this.#open) {
      if (outage.byWrite && !write) continue;
      this.#open.delete(source);
      const seconds = Math.round((this.#now() - outage.since) / 100) / 10;
      this.#logger.info(`storage available again: ${source}`, { source, downSeconds: seconds, refused: outage.refused });
    }
  }
}
