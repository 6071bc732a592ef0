import { DatabaseError, type Pool, type PoolClient } from "pg";
import { IdempotencyKeyTakenError, recordOf, type CreateOptions, type IdempotentWrite } from "../idempotency-store.js";
import type { KeyRecord, KeyStore, Rotation } from "../key-store.js";
import { inTransaction, insertIdempotencyRecords } from "./idempotency-rows.js";
import type { KeyCache } from "./key-cache.js";
import type { KeyAnnouncements } from "./key-changes.js";
import { freezeKeyRecord, newKeyRecord } from "../indexed/records.js";
import { KEY_COLUMNS, KEY_PLACEHOLDERS, keyValues, toKeyRecord, type KeyRow } from "./rows.js";
import { storageCall } from "./storage-errors.js";
import type { TouchBuffer } from "./touch-buffer.js";

/**
 * API keys in PostgreSQL. findByHash answers from this instance's cache when it can, else with a
 * unique-index lookup. A key changed through any instance is announced to all of them at the
 * commit (migration 7, key-changes.ts) and leaves their caches, so a revoked key is refused by
 * every instance from the next request.
 */
export class PostgresKeyStore implements KeyStore {
  readonly #pool: Pool;
  readonly #database: string;
  readonly #touches: TouchBuffer;
  readonly #cache: KeyCache;
  readonly #announcements: KeyAnnouncements;
  // This instance's latest use of each key: a cached record's lastUsedAt is as old as the cache entry.
  readonly #lastUse = new Map<string, number>();
  // The last record #withPendingUse made for each key, with what it was made from.
  readonly #withUse = new Map<string, { base: KeyRecord; use: number; record: KeyRecord }>();
  // Keys whose create has not resolved: not there yet for revoke(), as with the file engine.
  readonly #creating = new Set<string>();

  constructor(pool: Pool, database: string, touches: TouchBuffer, cache: KeyCache, announcements: KeyAnnouncements) {
    this.#pool = pool;
    this.#database = database;
    this.#touches = touches;
    this.#cache = cache;
    this.#announcements = announcements;
  }

  async create(input: KeyRecord, options: CreateOptions<KeyRecord> = {}): Promise<KeyRecord> {
    const record = newKeyRecord(input);
    // A second create of one id in this instance waits for no race: of two INSERTs on two pool
    // connections either may reach PostgreSQL first, and the one begun first must win.
    if (this.#creating.has(record.id)) throw new Error(`a key with the id ${record.id} already exists`);
    this.#creating.add(record.id);
    try {
      const write = options.idempotency;
      const created = await (write ? this.#insertIdempotent(record, write) : this.#insert(this.#pool, record)).catch((error: unknown) => {
        throw duplicateKeyError(error, record.id) ?? error;
      });
      if (created === undefined) throw new IdempotencyKeyTakenError(options.idempotency?.id ?? "");
      return created;
    } finally {
      this.#creating.delete(record.id);
    }
  }

  async #insert(client: Pool | PoolClient, record: KeyRecord): Promise<KeyRecord> {
    const { rows } = await storageCall(this.#database, () =>
      client.query<KeyRow>(
        `INSERT INTO api_keys (${KEY_COLUMNS}) VALUES (${KEY_PLACEHOLDERS}) RETURNING ${KEY_COLUMNS}`,
        keyValues(record),
      ),
    );
    return toKeyRecord(rows[0] as KeyRow);
  }

  /** The key and its idempotency record in one transaction; undefined (nothing created) when the id is taken. */
  async #insertIdempotent(record: KeyRecord, write: IdempotentWrite<KeyRecord>): Promise<KeyRecord | undefined> {
    const taken = Symbol("taken");
    const created = await inTransaction(this.#pool, this.#database, async (client) => {
      const key = await this.#insert(client, record);
      const written = await insertIdempotencyRecords(client, [recordOf(write, key)]);
      // Throwing rolls the key back; the symbol is no Error, so storageCall passes it through.
      if (!written.has(write.id)) throw taken;
      return key;
    }).catch((error: unknown) => {
      if (error === taken) return undefined;
      throw error;
    });
    return created;
  }

  /** A key this instance has cached; undefined otherwise (then findByHash reads it). */
  findByHashSync(hash: string): KeyRecord | undefined {
    const cached = this.#cache.get(hash);
    return cached === undefined ? undefined : this.#withPendingUse(cached);
  }

  async findByHash(hash: string): Promise<KeyRecord | undefined> {
    const cached = this.#cache.get(hash);
    if (cached !== undefined) return this.#withPendingUse(cached);
    const generation = this.#cache.generation;
    const { rows } = await storageCall(this.#database, () =>
      this.#pool.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE hash = $1 OR previous_hash = $1`, [hash]),
    );
    if (rows[0] === undefined) return undefined;
    const record = toKeyRecord(rows[0]);
    this.#cache.put(hash, record, generation);
    return this.#withPendingUse(record);
  }

  async list(): Promise<KeyRecord[]> {
    const { rows } = await storageCall(this.#database, () =>
      this.#pool.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY position`),
    );
    return rows.map((row) => this.#withPendingUse(toKeyRecord(row)));
  }

  async revoke(id: string, at: Date): Promise<KeyRecord | undefined> {
    if (this.#creating.has(id)) return undefined;
    const announced = this.#announcements.expect(id);
    let changed = false;
    try {
      // COALESCE keeps the first revocation's instant: revoking again changes nothing.
      const { rows } = await storageCall(this.#database, () =>
        this.#pool.query<KeyRow>(
          `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 RETURNING ${KEY_COLUMNS}`,
          [id, at.toISOString()],
        ),
      );
      changed = rows[0]?.revoked_at?.getTime() === at.getTime();
      // Here at once; the other instances with the NOTIFY, which the answer waits for.
      this.#cache.forget(id);
      return rows[0] && this.#withPendingUse(toKeyRecord(rows[0]));
    } finally {
      await announced(changed);
    }
  }

  /** One UPDATE: the row is the truth every instance reads, so the grace period holds on all of them. */
  async rotate(id: string, rotation: Rotation): Promise<KeyRecord | undefined> {
    if (this.#creating.has(id)) return undefined;
    const announced = this.#announcements.expect(id);
    let changed = false;
    try {
      return await this.#rotate(id, rotation, (rotated) => (changed = rotated));
    } finally {
      await announced(changed);
    }
  }

  async #rotate(id: string, rotation: Rotation, rotated: (changed: boolean) => void): Promise<KeyRecord | undefined> {
    const { rows } = await storageCall(this.#database, () =>
      this.#pool.query<KeyRow>(
        `UPDATE api_keys SET previous_hash = CASE WHEN revoked_at IS NULL THEN hash ELSE previous_hash END,
           previous_hash_until = CASE WHEN revoked_at IS NULL THEN $4::timestamptz ELSE previous_hash_until END,
           rotated_at = CASE WHEN revoked_at IS NULL THEN $5::timestamptz ELSE rotated_at END,
           prefix = CASE WHEN revoked_at IS NULL THEN $3 ELSE prefix END,
           hash = CASE WHEN revoked_at IS NULL THEN $2 ELSE hash END
         WHERE id = $1 RETURNING ${KEY_COLUMNS}`,
        [id, rotation.hash, rotation.prefix, rotation.graceUntil, rotation.at],
      ),
    ).catch((error: unknown) => {
      throw duplicateKeyError(error, id) ?? error;
    });
    this.#cache.forget(id);
    // A revoked key is returned unchanged: nothing was announced.
    rotated(rows[0] !== undefined && rows[0].revoked_at === null);
    return rows[0] && this.#withPendingUse(toKeyRecord(rows[0]));
  }

  touch(id: string, at: Date): void {
    const ms = at.getTime();
    this.#touches.record(id, ms);
    if ((this.#lastUse.get(id) ?? 0) < ms) this.#lastUse.set(id, ms);
  }

  /** Revoked admin keys do not count: with all of them revoked, the next start bootstraps one. */
  async hasAdminKey(): Promise<boolean> {
    const { rows } = await storageCall(this.#database, () =>
      this.#pool.query<{ found: boolean }>(
        "SELECT EXISTS (SELECT 1 FROM api_keys WHERE admin AND revoked_at IS NULL) AS found",
      ),
    );
    return rows[0]?.found === true;
  }

  async createFirstAdmin(input: KeyRecord): Promise<boolean> {
    const record = newKeyRecord(input);
    return storageCall(this.#database, async () => {
      const client = await this.#pool.connect();
      try {
        await client.query("BEGIN");
        // The lock is taken before the INSERT's snapshot, so a second instance waits here and
        // then sees the first one's admin key.
        await client.query("SELECT pg_advisory_xact_lock($1)", [FIRST_ADMIN_LOCK]);
        const { rowCount } = await client.query(
          `INSERT INTO api_keys (${KEY_COLUMNS}) SELECT ${KEY_PLACEHOLDERS}
           WHERE NOT EXISTS (SELECT 1 FROM api_keys WHERE admin AND revoked_at IS NULL)`,
          keyValues(record),
        );
        await client.query("COMMIT");
        return rowCount === 1;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    });
  }

  #withPendingUse(record: KeyRecord): KeyRecord {
    const pending = this.#touches.pendingFor(record.id) ?? this.#lastUse.get(record.id);
    if (pending === undefined) return record;
    // Every request of a busy key asks for this, and its last use moves once a millisecond at
    // most: the record made for the same base and the same use is given again, not made again.
    const made = this.#withUse.get(record.id);
    if (made?.base === record && made.use === pending) return made.record;
    const merged = record.lastUsedAt !== null && Date.parse(record.lastUsedAt) >= pending ? record : freezeKeyRecord({ ...record, lastUsedAt: new Date(pending).toISOString() });
    this.#withUse.set(record.id, { base: record, use: pending, record: merged });
    return merged;
  }
}

// Any constant, the same in every petstore; distinct from the migration lock.
const FIRST_ADMIN_LOCK = 7_365_201_102;

function duplicateKeyError(error: unknown, id: string): Error | undefined {
  if (!(error instanceof DatabaseError) || error.code !== "23505") return undefined;
  return error.constraint === "api_keys_hash_key" || error.constraint === "api_keys_previous_hash_key"
    ? new Error("a key with the same secret already exists")
    : new Error(`a key with the id ${id} already exists`);
}
