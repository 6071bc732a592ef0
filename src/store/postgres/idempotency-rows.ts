// The idempotency_keys table: the records that idempotent creates write in their own transaction.
import type { Pool, PoolClient } from "pg";
import { IDEMPOTENCY_TTL_MS } from "../../contract/limits.js";
import { isLive, type IdempotencyRecord, type IdempotencyStore } from "../idempotency-store.js";
import { storageCall } from "./storage-errors.js";
import { runTransaction } from "./transaction.js";

interface IdempotencyRow {
  id: string;
  fingerprint: string;
  created_at: Date;
  answer: string;
}

// Expired rows are deleted at most this often, by whichever lookup comes first after it.
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * Inserts `records` inside the caller's transaction; returns the ids it wrote. An id with a live
 * row is left alone and not returned (another instance created with it first); an expired row is
 * replaced. A concurrent transaction inserting the same id makes this one wait for its outcome.
 */
export async function insertIdempotencyRecords(client: PoolClient, records: readonly IdempotencyRecord[]): Promise<Set<string>> {
  if (records.length === 0) return new Set();
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO idempotency_keys (id, fingerprint, created_at, answer)
     SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[])
     ON CONFLICT (id) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, created_at = EXCLUDED.created_at, answer = EXCLUDED.answer
       WHERE idempotency_keys.created_at <= EXCLUDED.created_at - $5 * interval '1 millisecond'
     RETURNING id`,
    [
      records.map((record) => record.id),
      records.map((record) => record.fingerprint),
      records.map((record) => record.createdAt),
      records.map((record) => record.answer),
      IDEMPOTENCY_TTL_MS,
    ],
  );
  return new Set(rows.map((row) => row.id));
}

/** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
export async function inTransaction<T>(pool: Pool, database: string, work: (client: PoolClient) => Promise<T>): Promise<T> {
  return storageCall(database, () => runTransaction(pool, work));
}

/** Lookups by primary key; expired rows are ignored, and deleted in bulk from time to time. */
export class PostgresIdempotencyStore implements IdempotencyStore {
  readonly #pool: Pool;
  readonly #database: string;
  readonly #warn: (message: string) => void;
  #prunedAt = Number.NEGATIVE_INFINITY;

  constructor(pool: Pool, database: string, warn: (message: string) => void) {
    this.#pool = pool;
    this.#database = database;
    this.#warn = warn;
  }

  async find(id: string, now: number): Promise<IdempotencyRecord | undefined> {
    if (now - this.#prunedAt >= PRUNE_EVERY_MS) {
      this.#prunedAt = now;
      // In the background: a lookup never waits for the cleaning, and a failed one is retried later.
      this.prune(now).catch((error: unknown) => this.#warn(`cannot delete expired idempotency records: ${String(error)}`));
    }
    const { rows } = await storageCall(this.#database, () =>
      this.#pool.query<IdempotencyRow>("SELECT id, fingerprint, created_at, answer FROM idempotency_keys WHERE id = $1", [id]),
    );
    const record = rows[0] && toRecord(rows[0]);
    return record && isLive(record, now) ? record : undefined;
  }

  /** Deletes every record expired at `now`; returns how many. */
  async prune(now: number): Promise<number> {
    const cutoff = new Date(now - IDEMPOTENCY_TTL_MS).toISOString();
    const { rowCount } = await storageCall(this.#database, () =>
      this.#pool.query("DELETE FROM idempotency_keys WHERE created_at <= $1", [cutoff]),
    );
    return rowCount ?? 0;
  }
}

function toRecord(row: IdempotencyRow): IdempotencyRecord {
  return { id: row.id, fingerprint: row.fingerprint, createdAt: row.created_at.toISOString(), answer: row.answer };
}
