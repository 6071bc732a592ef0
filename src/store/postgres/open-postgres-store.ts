import { Pool } from "pg";
import { messageOf } from "../../support/error-text.js";
import { redactUrl } from "../../support/http-url.js";
import type { Store } from "../store.js";
import { PostgresIdempotencyStore } from "./idempotency-rows.js";
import { migrate } from "./migrations.js";
import { snapshotPostgres } from "./postgres-data.js";
import { storageCall } from "./storage-errors.js";
import { PostgresEventFeed } from "./postgres-event-feed.js";
import { KeyCache } from "./key-cache.js";
import { KeyChangeListener } from "./key-changes.js";
import { PostgresKeyStore } from "./postgres-key-store.js";
import { PostgresOrderStore } from "./postgres-order-store.js";
import { PostgresPetStore } from "./postgres-pet-store.js";
import { PostgresSpentTickets } from "./postgres-spent-tickets.js";
import { PostgresWebhookStore } from "./postgres-webhook-store.js";
import { PostgresDeliveryStore } from "./postgres-delivery-store.js";
import { TouchBuffer } from "./touch-buffer.js";

export interface PostgresStoreOptions {
  /** Told about background trouble: lost connections, lastUsedAt that could not be saved. */
  warn: (message: string) => void;
  /** Connections per instance; several instances share the server's max_connections. */
  poolSize?: number;
  /** Told of each batched INSERT of creates: how many pets, how long (metrics). */
  onBatch?: (size: number, ms: number) => void;
}

const POOL_SIZE = 10;
// A request never waits long on a database in trouble: it gets a 503 instead.
const CONNECT_TIMEOUT_MS = 5_000;
const STATEMENT_TIMEOUT_MS = 5_000;

/**
 * Connects to PostgreSQL (a postgres:// URL), creates or migrates the schema, and returns the
 * pet and key stores over one connection pool. Throws, naming the URL without its password,
 * when the database cannot be reached or migrated; later failures are StorageUnavailableError.
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions): Promise<Store> {
  const database = redactUrl(url);
  const pool = new Pool({
    connectionString: url,
    max: options.poolSize ?? POOL_SIZE,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    query_timeout: STATEMENT_TIMEOUT_MS + 1_000,
    application_name: "petstore",
  });
  // An idle connection that dies (server restart, network) is reported here; without a
  // listener the process would crash. The pool replaces it on the next query.
  pool.on("error", (error) => options.warn(`PostgreSQL connection lost: ${error.message}`));
  // pg-pool listens only to idle connections: one that dies while checked out (between two
  // statements of a transaction, under load) would emit an unhandled 'error' and end the
  // process. Its next statement fails instead (a 503), and the pool drops it at release.
  pool.on("connect", (client) => client.on("error", () => undefined));
  try {
    await migrateAlone(url, options.warn);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new Error(`cannot open the PostgreSQL database ${database}: ${messageOf(error)}`, { cause: error });
  }
  const touches = new TouchBuffer(pool, database, options.warn);
  const events = new PostgresEventFeed(pool, url, options.warn);
  const keyCache = new KeyCache();
  const keyChanges = new KeyChangeListener(url, keyCache, options.warn);
  try {
    await events.open();
    await keyChanges.open();
  } catch (error) {
    await events.close().catch(() => undefined);
    await pool.end().catch(() => undefined);
    throw new Error(`cannot listen for events and key changes on ${database}: ${messageOf(error)}`, { cause: error });
  }
  let closing: Promise<void> | undefined;
  return {
    pets: new PostgresPetStore(pool, database, options.onBatch),
    keys: new PostgresKeyStore(pool, database, touches, keyCache, keyChanges),
    orders: new PostgresOrderStore(pool, database),
    webhooks: new PostgresWebhookStore(pool, database),
    deliveries: new PostgresDeliveryStore(pool, database),
    idempotency: new PostgresIdempotencyStore(pool, database, options.warn),
    spentTickets: new PostgresSpentTickets(pool, database, options.warn),
    snapshot: () => storageCall(database, () => snapshotPostgres(pool)),
    events,
    close: () => (closing ??= Promise.all([events.close(), keyChanges.close()]).then(() => closePool(pool, touches, options.warn))),
  };
}

/**
 * The migration over a connection of its own, without the pool's timeouts, which are for
 * requests: a step that fills a table for a large database, or the wait for another instance's
 * migration, may take longer, once, at start.
 */
async function migrateAlone(url: string, warn: (message: string) => void): Promise<void> {
  const pool = new Pool({ connectionString: url, max: 1, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, application_name: "petstore migrate" });
  try {
    await migrate(pool, { warn });
  } finally {
    await pool.end();
  }
}

async function closePool(pool: Pool, touches: TouchBuffer, warn: (message: string) => void): Promise<void> {
  try {
    await touches.flush();
  } catch (error) {
    warn(`cannot save when keys were last used at close: ${messageOf(error)}`);
  }
  await pool.end();
}
