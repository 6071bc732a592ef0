import type { Pool } from "pg";
import { PeriodicSaver } from "../../support/periodic-saver.js";
import { storageCall } from "./storage-errors.js";

const FLUSH_INTERVAL_MS = 1_000;

/**
 * lastUsedAt updates, kept in memory and written in one statement at most once a second and at
 * close: a key used on every request must not cost a write per request.
 */
export class TouchBuffer {
  readonly #pool: Pool;
  readonly #database: string;
  readonly #pending = new Map<string, number>();
  readonly #saver: PeriodicSaver;

  constructor(pool: Pool, database: string, warn: (message: string) => void) {
    this.#pool = pool;
    this.#database = database;
    this.#saver = new PeriodicSaver({
      save: () => this.#write(),
      intervalMs: FLUSH_INTERVAL_MS,
      warn,
      what: "cannot save when keys were last used",
    });
  }

  /** Records a use (ms since the epoch); an older one than already recorded is ignored. */
  record(id: string, at: number): void {
    if ((this.#pending.get(id) ?? 0) >= at) return;
    this.#pending.set(id, at);
    this.#saver.schedule();
  }

  /** The use recorded but maybe not yet written, in ms. */
  pendingFor(id: string): number | undefined {
    return this.#pending.get(id);
  }

  /** Writes what is pending, after any write already under way. */
  flush(): Promise<void> {
    return this.#saver.flush();
  }

  async #write(): Promise<void> {
    if (this.#pending.size === 0) return;
    const batch = new Map(this.#pending);
    const ids = [...batch.keys()];
    const times = ids.map((id) => new Date(batch.get(id) ?? 0).toISOString());
    await storageCall(this.#database, () =>
      this.#pool.query(
        `UPDATE api_keys SET last_used_at = used.at
           FROM unnest($1::text[], $2::timestamptz[]) AS used(id, at)
          WHERE api_keys.id = used.id AND (api_keys.last_used_at IS NULL OR api_keys.last_used_at < used.at)`,
        [ids, times],
      ),
    );
    for (const [id, at] of batch) if (this.#pending.get(id) === at) this.#pending.delete(id);
  }
}
