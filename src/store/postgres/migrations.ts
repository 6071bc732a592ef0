// The schema, as numbered steps. Each step runs once, in a transaction, recorded in
// schema_migrations; a new step is appended here, never edited once released.
import type { Pool, PoolClient } from "pg";
import { EVENTS_MIGRATION } from "./events-migration.js";
import { ORDERS_MIGRATION } from "./orders-migration.js";
import { KEY_LIFETIMES_MIGRATION } from "./key-lifetimes-migration.js";
import { KEY_CHANGES_MIGRATION } from "./keys-migration.js";
import { SPENT_TICKETS_MIGRATION } from "./spent-tickets-migration.js";
import { NAME_SEARCH_MIGRATION } from "./name-search-migration.js";
import { WEBHOOKS_MIGRATION } from "./webhooks-migration.js";
import { KEY_SCOPES_MIGRATION } from "./key-scopes-migration.js";
import { NAME_TRIGRAMS_MIGRATION } from "./name-trigrams-migration.js";

export interface Migration {
  version: number;
  description: string;
  sql: string;
  /** Runs after `sql`, in the same transaction: for a step that needs petstore's own code (folding names). */
  run?: (client: PoolClient) => Promise<void>;
  /**
   * Runs at every migrate once the schema is current, also in the transaction: for what may be
   * missing even then (an optional extension). Returns a warning when it is still missing.
   */
  ensure?: (client: PoolClient) => Promise<string | undefined>;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: "pets and API keys",
    sql: `
      CREATE TABLE pets (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
        category_id bigint NOT NULL CHECK (category_id BETWEEN 1 AND 9007199254740991),
        status text NOT NULL CHECK (status IN ('available', 'pending', 'sold'))
      );
      -- listPets with a status: WHERE status = $1 AND id > $2 ORDER BY id LIMIT n
      CREATE INDEX pets_status_id ON pets (status, id);

      CREATE TABLE api_keys (
        id text PRIMARY KEY,
        -- GET /v1/keys lists keys in the order they were created, as the file engine does.
        position bigint GENERATED ALWAYS AS IDENTITY,
        hash text NOT NULL CONSTRAINT api_keys_hash_key UNIQUE,
        prefix text NOT NULL,
        plan text NOT NULL CHECK (plan IN ('free', 'pro', 'business', 'enterprise')),
        name text,
        admin boolean NOT NULL,
        per_minute bigint,
        per_day bigint,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz,
        last_used_at timestamptz,
        CHECK ((per_minute IS NULL) = (per_day IS NULL))
      );
      -- hasAdminKey() at every start: only the few live admin keys are indexed.
      CREATE INDEX api_keys_live_admin ON api_keys (id) WHERE admin AND revoked_at IS NULL;
    `,
  },
  {
    version: 2,
    description: "pets that change: revisions, category indexes",
    sql: `
      -- 1 at creation, one more with every update: what a pet's strong ETag is made of.
      ALTER TABLE pets ADD COLUMN revision integer NOT NULL DEFAULT 1 CHECK (revision >= 1);
      -- listPets by category, with or without a status: category_id = $1 [AND status = $2] AND id > $3
      -- ORDER BY id LIMIT n reads only the filtered pets, in id order.
      CREATE INDEX pets_category_id ON pets (category_id, id);
      CREATE INDEX pets_status_category_id ON pets (status, category_id, id);
    `,
  },
  {
    version: 3,
    description: "idempotent creates: the stored answer of each Idempotency-Key",
    sql: `
      -- Written in the transaction of the row it created; answer is ciphertext sealed by the
      -- server under the caller's own key, so this table never holds a secret in clear.
      CREATE TABLE idempotency_keys (
        id text PRIMARY KEY,
        fingerprint text NOT NULL,
        created_at timestamptz NOT NULL,
        answer text NOT NULL
      );
      -- The periodic DELETE of expired records: created_at < cutoff.
      CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
    `,
  },
  ORDERS_MIGRATION,
  EVENTS_MIGRATION,
  KEY_LIFETIMES_MIGRATION,
  KEY_CHANGES_MIGRATION,
  SPENT_TICKETS_MIGRATION,
  NAME_SEARCH_MIGRATION,
  KEY_SCOPES_MIGRATION,
  WEBHOOKS_MIGRATION,
  NAME_TRIGRAMS_MIGRATION,
];

// Any constant works, as long as every petstore uses the same one: pg_advisory_xact_lock
// makes a second instance starting at the same moment wait instead of racing the DDL.
const MIGRATION_LOCK = 7_365_201_101;

export interface MigrateOptions {
  migrations?: readonly Migration[];
  /** Told what the schema still lacks once current (see Migration.ensure). */
  warn?: (message: string) => void;
}

/**
 * Brings the schema up to the newest version; safe to call from several instances at once.
 * Returns the versions it applied (empty when the schema was current).
 */
export async function migrate(pool: Pool, { migrations = MIGRATIONS, warn }: MigrateOptions = {}): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    // The pool's statement timeout is for requests: a step that rewrites a large table, or an
    // instance waiting here for another's migration, may take longer, once, at start.
    await client.query("SET LOCAL statement_timeout = 0");
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    const applied = await appliedVersions(client);
    const newest = Math.max(0, ...migrations.map((migration) => migration.version));
    const unknown = [...applied].filter((version) => version > newest);
    if (unknown.length > 0) {
      throw new Error(`the database schema has version ${Math.max(...unknown)}, newer than this petstore knows (${newest})`);
    }
    const pending = migrations.filter((migration) => !applied.has(migration.version));
    for (const migration of pending) {
      await client.query(migration.sql);
      await migration.run?.(client);
      await client.query("INSERT INTO schema_migrations (version, description) VALUES ($1, $2)", [
        migration.version,
        migration.description,
      ]);
    }
    for (const migration of migrations) {
      const warning = await migration.ensure?.(client);
      if (warning !== undefined) warn?.(warning);
    }
    await client.query("COMMIT");
    return pending.map((migration) => migration.version);
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function appliedVersions(client: PoolClient): Promise<Set<number>> {
  await client.query(`
    CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      description text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  const { rows } = await client.query<{ version: number }>("SELECT version FROM schema_migrations");
  return new Set(rows.map((row) => row.version));
}
