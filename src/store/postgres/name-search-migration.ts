// Migration 9: listPets' q and sort=name. migrations.ts lists it in its place. No import of the
// Migration type from there: that would be a cycle.
import type { PoolClient } from "pg";
import { foldName } from "../../contract/name-search.js";

// Rows folded per UPDATE when an existing table is brought up to date.
const BACKFILL_BATCH = 5_000;
const TRIGRAM_INDEX = "pets_name_key_trgm";

/**
 * pets.name_key: the folded name (foldName), written by petstore with every name, so that both
 * engines fold with the same code; PostgreSQL's lower() follows the database's locale and would
 * not agree with it (ß, final sigma). "C" collation: ordered by code point, as the file engine
 * orders. Each filter's name order has its index, as each filter's id order has.
 */
export const NAME_SEARCH_MIGRATION = {
  version: 9,
  description: "pets searchable and sortable by folded name (name_key, pg_trgm when available)",
  sql: `ALTER TABLE pets ADD COLUMN name_key text COLLATE "C"`,
  async run(client: PoolClient): Promise<void> {
    await backfill(client);
    await client.query(`
      ALTER TABLE pets ALTER COLUMN name_key SET NOT NULL;
      -- sort=name and -name: [status = $1] [AND category_id = $2] AND (name_key, id) > ($3, $4)
      -- ORDER BY name_key, id LIMIT n, each from its index, read forwards or backwards.
      CREATE INDEX pets_name_key_id ON pets (name_key, id);
      CREATE INDEX pets_status_name_key_id ON pets (status, name_key, id);
      CREATE INDEX pets_category_name_key_id ON pets (category_id, name_key, id);
      CREATE INDEX pets_status_category_name_key_id ON pets (status, category_id, name_key, id);
    `);
  },
  ensure: ensureTrigramIndex,
};

/** Folds the names of the rows written before this migration, a batch at a time. */
async function backfill(client: PoolClient): Promise<void> {
  for (;;) {
    const { rows } = await client.query<{ id: string; name: string }>(
      "SELECT id, name FROM pets WHERE name_key IS NULL ORDER BY id LIMIT $1",
      [BACKFILL_BATCH],
    );
    if (rows.length === 0) return;
    await client.query(
      "UPDATE pets SET name_key = folded.key FROM unnest($1::bigint[], $2::text[]) AS folded (id, key) WHERE pets.id = folded.id",
      [rows.map((row) => row.id), rows.map((row) => foldName(row.name))],
    );
  }
}

/**
 * q is `name_key LIKE '%text%'`, which a pg_trgm GIN index answers from the text's trigrams.
 * pg_trgm comes with PostgreSQL's contrib package and is a trusted extension: any role that may
 * create in the database can add it. Where it cannot be had, searches still answer, by reading
 * every name, and the returned warning says so; at each start it is tried again, so installing it
 * later is enough. Runs in the migration's transaction, under its lock.
 */
async function ensureTrigramIndex(client: PoolClient): Promise<string | undefined> {
  const present = await client.query("SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND indexname = $1", [TRIGRAM_INDEX]);
  if (present.rows.length > 0) return undefined;
  await client.query("SAVEPOINT trigram_index");
  try {
    await client.query("CREATE EXTENSION IF NOT EXISTS pg_trgm");
    // Where the extension was created in a schema of its own, its operator class is named there.
    const { rows } = await client.query<{ schema: string }>(
      "SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_trgm'",
    );
    await client.query(`CREATE INDEX ${TRIGRAM_INDEX} ON pets USING gin (name_key ${rows[0]!.schema}.gin_trgm_ops)`);
    await client.query("RELEASE SAVEPOINT trigram_index");
    return undefined;
  } catch (error) {
    await client.query("ROLLBACK TO SAVEPOINT trigram_index");
    const reason = error instanceof Error ? error.message : String(error);
    return (
      `the PostgreSQL extension pg_trgm cannot be used (${reason}): GET /v1/pets?q= reads every pet's name instead of an index. ` +
      "Install PostgreSQL's contrib package, or have the database's owner run CREATE EXTENSION pg_trgm, then restart petstore"
    );
  }
}
