// Chooses the engines from the db and Redis settings: a lowdb file or PostgreSQL for pets and
// keys; Redis, a persisted in-memory limiter (file mode) or a plain in-memory one for the limits.
// Each engine module is imported only once chosen, so `serve --db file.json` never loads pg or
// the Redis client (test/support/lazy-engines.test.ts fails if one of these imports becomes static).
import { lstat, rm } from "node:fs/promises";
import type { BanPolicy } from "../limits/plans.js";
import type { RateLimiter } from "../limits/rate-limiter.js";
import type { RedisRateLimiter } from "../limits/redis-rate-limiter.js";
import type { SharedListingVersion } from "../store/pet-store.js";
import type { Store } from "../store/store.js";
import type { StoreData } from "../store/indexed/store-state.js";
import { StoreNotEmptyError } from "../store/errors.js";
import type { WriteEvent } from "../store/lowdb/durable-json-file.js";
import { resolveDbFile } from "../store/lowdb/db-file-path.js";
import { changesPathOf } from "../limits/file-persister.js";
import { redactUrl } from "../support/http-url.js";
import type { StoreWrite } from "./metrics/observer.js";

export interface BackendOptions {
  /** A file path, or a postgres:// (postgresql://) URL. */
  db: string;
  /** A redis:// (rediss://) URL; without one the limits are counted in this process. */
  redis: string | undefined;
  ban: BanPolicy;
  now: () => number;
  warn: (message: string) => void;
  /** Told of each durable write, for the metrics. */
  onWrite?: (write: StoreWrite) => void;
  /** Written into the db before it is opened (--seed); refused when the db holds anything. */
  seed?: StoreData;
}

export interface Backends {
  store: Store;
  limiter: RateLimiter;
  /** PostgreSQL with a shared Redis: when a listing kept in memory is still right. */
  listings?: SharedListingVersion;
  /** For the start-up line, without passwords: "db /srv/petstore.json" or "db postgres://…, limits redis://…". */
  description: string;
  /** The db file as resolved (symlinks followed), for the file engine. */
  dbFile?: string;
  /**
   * Removes the files this start created, once the store and limiter are closed: a start that
   * fails before it serves (a port it cannot have) leaves no file behind.
   */
  discard(): Promise<void>;
}

export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

/** Opens the store, then the limiter; closes the store again when the limiter cannot start. */
export async function openBackends(options: BackendOptions): Promise<Backends> {
  const postgres = isPostgresUrl(options.db);
  // The file's one real name: the lock, the journal and the limits file all follow it.
  const dbPath = postgres ? options.db : await resolveDbFile(options.db);
  const created = postgres ? [] : await absentFiles(companionFiles(dbPath));
  const discard = () => removeFiles(created);
  if (options.seed) await writeSeed(options.db, options.seed, options.warn).catch(async (error: unknown) => {
    await discard();
    throw error;
  });
  const store = postgres ? await openPostgres(options.db, options) : await openLowdb(dbPath, options);
  try {
    const limiter = await openLimiter(options, postgres ? undefined : dbPath);
    const db = `db ${postgres ? redactUrl(options.db) : dbPath}`;
    const description = options.redis ? `${db}, limits ${redactUrl(options.redis)}` : db;
    const listings = postgres && options.redis ? await shareListings(limiter as RedisRateLimiter, store) : undefined;
    return { store, limiter, description, listings, dbFile: postgres ? undefined : dbPath, discard };
  } catch (error) {
    await store.close();
    await discard();
    throw error;
  }
}

/** The seed into a new or empty db, as `db import` writes an export: ids, hashes and states kept. */
async function writeSeed(db: string, seed: StoreData, warn: (message: string) => void): Promise<void> {
  const { writeStoreData } = await import("../store/transfer/store-data.js");
  await writeStoreData(db, seed, { warn }).catch((error: unknown) => {
    if (!(error instanceof StoreNotEmptyError)) throw error;
    const where = isPostgresUrl(db) ? redactUrl(db) : error.target;
    throw new Error(`--seed fills only an empty db, and ${where} holds pets, keys or orders: serve it without --seed, or use --ephemeral`, { cause: error });
  });
}

/** The files a file-engine start may create: the db, its journal, the rate-limit counters and their changes. */
function companionFiles(dbPath: string): string[] {
  const limits = `${dbPath}.limits.json`;
  return [dbPath, `${dbPath}.journal`, limits, changesPathOf(limits)];
}

async function absentFiles(paths: string[]): Promise<string[]> {
  const present = await Promise.all(paths.map((path) => lstat(path).then(() => true, () => false)));
  return paths.filter((_, index) => !present[index]);
}

async function removeFiles(paths: string[]): Promise<void> {
  await Promise.all(paths.map((path) => rm(path, { force: true })));
}

// The expiry of idempotency records is decided by the clock each lookup is given.
async function openPostgres(url: string, { warn, onWrite }: BackendOptions): Promise<Store> {
  const { openPostgresStore } = await import("../store/postgres/open-postgres-store.js");
  const onBatch = onWrite ? (changes: number, ms: number) => onWrite({ engine: "postgres", changes, ms }) : undefined;
  return openPostgresStore(url, { warn, onBatch });
}

async function openLowdb(file: string, { warn, now, onWrite }: BackendOptions): Promise<Store> {
  const { openLowdbStore } = await import("../store/lowdb/open-lowdb-store.js");
  // Journal lines are the group commits; snapshot rewrites (compaction) are not batches of changes.
  const report = onWrite
    ? (event: WriteEvent) => {
        if (event.file === "journal") onWrite({ engine: "lowdb", changes: event.changes ?? 0, journalBytes: event.bytes, ms: event.ms });
      }
    : undefined;
  return openLowdbStore(file, { warn, now, onWrite: report });
}

async function shareListings(limiter: RedisRateLimiter, store: Store): Promise<SharedListingVersion> {
  const { RedisListingVersion } = await import("./shared-listings.js");
  return new RedisListingVersion(limiter, store.events);
}

async function openLimiter(options: BackendOptions, dbPath: string | undefined): Promise<RateLimiter> {
  const { ban, now, warn } = options;
  if (options.redis) {
    const { openRedisRateLimiter } = await import("../limits/redis-connection.js");
    return openRedisRateLimiter(options.redis, { ban, now, warn });
  }
  const { MemoryRateLimiter, openMemoryRateLimiter } = await import("../limits/memory-rate-limiter.js");
  if (dbPath) {
    const { filePersister } = await import("../limits/file-persister.js");
    return openMemoryRateLimiter({ persister: filePersister(`${dbPath}.limits.json`), ban, now, warn });
  }
  warn(
    "PostgreSQL without --redis: rate limits and bans are counted in this process only, so each instance " +
      "allows the full limit and the counters are lost at restart; pass --redis redis://... to share them",
  );
  return new MemoryRateLimiter({ ban, now, warn });
}
