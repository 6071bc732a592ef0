// The whole data of a PostgreSQL store, read or written at once: what export, import and migrate
// need. Ids are kept: pets' identity is GENERATED ALWAYS, so the import says OVERRIDING SYSTEM
// VALUE, then moves both sequences on so that new ids continue after the imported ones.
import { Pool, type PoolClient } from "pg";
import { redactUrl } from "../../support/http-url.js";
import type { IdempotencyRecord } from "../idempotency-store.js";
import { STORE_DATA_VERSION, type StoreData } from "../indexed/store-state.js";
import type { OrderRecord } from "../indexed/order-records.js";
import { foldName } from "../../contract/name-search.js";
import { StoreNotEmptyError } from "../errors.js";
import { migrate } from "./migrations.js";
import { runTransaction } from "./transaction.js";
import { nextValue, setNextValue } from "./sequences.js";
import { readWebhookData, writeWebhookData } from "./webhook-data.js";
import { KEY_COLUMNS, KEY_PLACEHOLDERS, keyValues, toKeyRecord, toStoredPet, type KeyRow, type PetRow } from "./rows.js";

/** Opens a short-lived pool, brings the schema up to date, runs `work` in one transaction. */
async function withDatabase<T>(url: string, isolation: string, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const pool = new Pool({ connectionString: url, max: 1, application_name: "petstore db" });
  try {
    await migrate(pool);
    return await runTransaction(pool, work, `BEGIN ISOLATION LEVEL ${isolation}`);
  } catch (error) {
    throw new Error(`${redactUrl(url)}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  } finally {
    await pool.end();
  }
}

/** Everything, as of one snapshot (REPEATABLE READ): a consistent copy while servers keep writing. */
export async function readPostgresData(url: string): Promise<StoreData> {
  return withDatabase(url, SNAPSHOT_ISOLATION, readInTransaction);
}

/** As readPostgresData, over a running server's pool. */
export async function snapshotPostgres(pool: Pool): Promise<StoreData> {
  return runTransaction(pool, readInTransaction, `BEGIN ISOLATION LEVEL ${SNAPSHOT_ISOLATION}`);
}

const SNAPSHOT_ISOLATION = "REPEATABLE READ READ ONLY";

/** Every table read in the caller's transaction, so all of them as of one snapshot. */
async function readInTransaction(client: PoolClient): Promise<StoreData> {
  const pets = await client.query<PetRow>("SELECT id, name, category_id, status, revision FROM pets ORDER BY id");
  const keys = await client.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY position`);
  const orders = await client.query<OrderRow>("SELECT id, pet_id, status, created_at, updated_at, revision FROM orders ORDER BY id");
  const idempotency = await client.query<{ id: string; fingerprint: string; created_at: Date; answer: string }>(
    "SELECT id, fingerprint, created_at, answer FROM idempotency_keys ORDER BY created_at, id",
  );
  const stored: IdempotencyRecord[] = idempotency.rows.map((row) => ({
    id: row.id,
    fingerprint: row.fingerprint,
    createdAt: row.created_at.toISOString(),
    answer: row.answer,
  }));
  return {
    version: STORE_DATA_VERSION,
    nextPetId: await nextValue(client, "pets"),
    pets: pets.rows.map(toStoredPet).map(({ pet, revision }) => (revision === 1 ? { ...pet } : { ...pet, revision })),
    keys: keys.rows.map(toKeyRecord),
    nextOrderId: await nextValue(client, "orders"),
    orders: orders.rows.map(toOrderRecord),
    ...(stored.length > 0 ? { idempotency: stored } : {}),
    ...(await readWebhookData(client)),
  };
}

/** Loads `data` into an empty database; refuses one that holds any pet, key, order or webhook endpoint. */
export async function writePostgresData(url: string, data: StoreData): Promise<void> {
  await withDatabase(url, "SERIALIZABLE", async (client) => {
    const { rows } = await client.query<{ held: boolean }>(
      "SELECT EXISTS (SELECT 1 FROM pets) OR EXISTS (SELECT 1 FROM api_keys) OR EXISTS (SELECT 1 FROM orders) OR EXISTS (SELECT 1 FROM webhooks) AS held",
    );
    if (rows[0]?.held) throw new StoreNotEmptyError("the database");
    await client.query(
      `INSERT INTO pets (id, name, category_id, status, revision, name_key) OVERRIDING SYSTEM VALUE
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::int[], $6::text[])`,
      [data.pets.map((p) => p.id), data.pets.map((p) => p.name), data.pets.map((p) => p.categoryId), data.pets.map((p) => p.status), data.pets.map((p) => p.revision ?? 1), data.pets.map((p) => foldName(p.name))],
    );
    for (const key of data.keys) await client.query(`INSERT INTO api_keys (${KEY_COLUMNS}) VALUES (${KEY_PLACEHOLDERS})`, keyValues(key));
    await client.query(
      `INSERT INTO orders (id, pet_id, status, created_at, updated_at, revision) OVERRIDING SYSTEM VALUE
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::timestamptz[], $5::timestamptz[], $6::int[])`,
      [data.orders.map((o) => o.id), data.orders.map((o) => o.petId), data.orders.map((o) => o.status), data.orders.map((o) => o.createdAt), data.orders.map((o) => o.updatedAt), data.orders.map((o) => o.revision ?? 1)],
    );
    // The pet's row names the order that holds it (see the orders migration).
    await client.query(
      "UPDATE pets SET open_order_id = orders.id FROM orders WHERE orders.pet_id = pets.id AND orders.status IN ('placed', 'approved')",
    );
    for (const record of data.idempotency ?? []) {
      await client.query("INSERT INTO idempotency_keys (id, fingerprint, created_at, answer) VALUES ($1, $2, $3, $4)", [record.id, record.fingerprint, record.createdAt, record.answer]);
    }
    await setNextValue(client, "pets", Math.max(data.nextPetId, ...data.pets.map((p) => p.id + 1)));
    await setNextValue(client, "orders", Math.max(data.nextOrderId, ...data.orders.map((o) => o.id + 1)));
    await writeWebhookData(client, data);
  });
}

interface OrderRow {
  id: string;
  pet_id: string;
  status: OrderRecord["status"];
  created_at: Date;
  updated_at: Date;
  revision: number;
}

function toOrderRecord(row: OrderRow): OrderRecord {
  const order = { id: Number(row.id), petId: Number(row.pet_id), status: row.status, createdAt: row.created_at.toISOString(), updatedAt: row.updated_at.toISOString() };
  return row.revision === 1 ? order : { ...order, revision: row.revision };
}
