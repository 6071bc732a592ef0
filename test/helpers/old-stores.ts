// Stores as the petstore before key scopes left them, for the upgrade tests: the version 2 db file
// of test/fixtures with its journal, or the same keys and pets in a PostgreSQL schema with every
// migration but the key scopes' one, written with that schema's own columns.
import { copyFile, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { foldName } from "../../src/contract/name-search.js";
import { KEY_SCOPES_MIGRATION } from "../../src/store/postgres/key-scopes-migration.js";
import { migrate, MIGRATIONS } from "../../src/store/postgres/migrations.js";
import { tempDbPath } from "./serve-process.js";
import { freshDatabase } from "./test-backend.js";

const V2_FILE = fileURLToPath(new URL("../fixtures/petstore-v2.json", import.meta.url));

/** The secrets of the fixture's keys (their hashes are in the file), by key id. */
export const OLD_SECRETS = {
  key_v2admin: `ps_${"V2admin".padEnd(40, "0")}`,
  key_v2pro: `ps_${"V2pro".padEnd(40, "0")}`,
  key_v2business: `ps_${"V2business".padEnd(40, "0")}`,
  key_v2rotated: `ps_${"V2rotatedNew".padEnd(40, "0")}`,
  key_v2revoked: `ps_${"V2revoked".padEnd(40, "0")}`,
  key_v2journal: `ps_${"V2journal".padEnd(40, "0")}`,
} as const;

/** A key of the version 2 format: every field it had, none it did not. */
export interface OldKey {
  id: string;
  hash: string;
  prefix: string;
  plan: string;
  name: string | null;
  admin: boolean;
  limits: { perMinute: number; perDay: number } | null;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  expiresAt?: string | null;
  previousHash?: string | null;
  previousHashUntil?: string | null;
  rotatedAt?: string | null;
}

interface OldData {
  pets: { id: number; name: string; categoryId: number; status: string }[];
  keys: OldKey[];
}

/** The fixture's keys, file and journal, in the order they were created. */
export async function oldKeys(): Promise<OldKey[]> {
  const file = JSON.parse(await readFile(V2_FILE, "utf8")) as OldData;
  const journal = JSON.parse(await readFile(`${V2_FILE}.journal`, "utf8")) as { keys: OldKey[] };
  return [...file.keys, ...journal.keys];
}

/** A copy of the version 2 db file and its journal in a new temporary directory. */
export async function oldFileStore(): Promise<string> {
  const file = await tempDbPath();
  await copyFile(V2_FILE, file);
  await copyFile(`${V2_FILE}.journal`, `${file}.journal`);
  return file;
}

/** A fresh database migrated up to key scopes (not included) holding the fixture's pets and keys; its URLs. */
export async function oldPostgresStore(): Promise<{ db: string; redis: string }> {
  const database = await freshDatabase();
  const pool = new pg.Pool({ connectionString: database.db, max: 1 });
  try {
    await migrate(pool, { migrations: MIGRATIONS.filter((migration) => migration.version < KEY_SCOPES_MIGRATION.version), warn: () => undefined });
    const { pets } = JSON.parse(await readFile(V2_FILE, "utf8")) as OldData;
    // name_key (the name search's migration) is written by petstore with every name, as here.
    for (const pet of pets) {
      await pool.query("INSERT INTO pets (name, name_key, category_id, status) VALUES ($1, $2, $3, $4)", [pet.name, foldName(pet.name), pet.categoryId, pet.status]);
    }
    for (const key of await oldKeys()) await insertOldKey(pool, key);
  } finally {
    await pool.end();
  }
  return database;
}

async function insertOldKey(pool: pg.Pool, key: OldKey): Promise<void> {
  await pool.query(
    `INSERT INTO api_keys (id, hash, prefix, plan, name, admin, per_minute, per_day, created_at, revoked_at, last_used_at,
       expires_at, previous_hash, previous_hash_until, rotated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [
      key.id, key.hash, key.prefix, key.plan, key.name, key.admin, key.limits?.perMinute ?? null, key.limits?.perDay ?? null,
      key.createdAt, key.revokedAt, key.lastUsedAt, key.expiresAt ?? null, key.previousHash ?? null, key.previousHashUntil ?? null, key.rotatedAt ?? null,
    ],
  );
}
