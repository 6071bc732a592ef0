import type { Pool } from "pg";
import type { SpentTickets } from "../spent-tickets.js";
import { storageCall } from "./storage-errors.js";

/** Expired rows are deleted at most this often, by the spend that comes after. */
const PRUNE_EVERY_MS = 60_000;

/** Spent tickets in PostgreSQL: one INSERT decides, so of two instances given one ticket, one wins. */
export class PostgresSpentTickets implements SpentTickets {
  readonly #pool: Pool;
  readonly #database: string;
  readonly #warn: (message: string) => void;
  #prunedAt = -Infinity;

  constructor(pool: Pool, database: string, warn: (message: string) => void) {
    this.#pool = pool;
    this.#database = database;
    this.#warn = warn;
  }

  async spend(id: string, expiresAt: number, now: number): Promise<boolean> {
    if (now - this.#prunedAt >= PRUNE_EVERY_MS) this.#prune(now);
    const { rowCount } = await storageCall(this.#database, () =>
      this.#pool.query("INSERT INTO spent_event_tickets (id, expires_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING", [id, new Date(expiresAt).toISOString()]),
    );
    return rowCount === 1;
  }

  /** In the background: a ticket past its expiry is refused before it is looked up here. */
  #prune(now: number): void {
    this.#prunedAt = now;
    this.#pool
      .query("DELETE FROM spent_event_tickets WHERE expires_at < $1", [new Date(now).toISOString()])
      .catch((error: unknown) => this.#warn(`cannot delete expired event tickets: ${(error as Error).message}`));
  }
}
