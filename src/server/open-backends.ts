// Chooses the engines from the db and Redis settings: a lowdb file or PostgreSQL for pets and
// keys; Redis, a persisted in-memory limiter (file mode) or a plain in-memory one for the limits.
import { resolve } from "node:path";
import { filePersister } from "../limits/file-persister.js";
import { MemoryRateLimiter, openMemoryRateLimiter } from "../limits/memory-rate-limiter.js";
import type { BanPolicy } from "../limits/plans.js";
import type { RateLimiter } from "../limits/rate-limiter.js";
import { openRedisRateLimiter } from "../limits/redis-connection.js";
import { openLowdbStore, openPostgresStore, type Store } from "../store/open-store.js";
import { redactUrl } from "../store/engine-text.js";

export interface BackendOptions {
  /** A file path, or a postgres:// (postgresql://) URL. */
  db: string;
  /** A redis:// (rediss://) URL; without one the limits are counted in this process. */
  redis: string | undefined;
  ban: BanPolicy;
  now: () => number;
  warn: (message: string) => void;
}

export interface Backends {
  store: Store;
  limiter: RateLimiter;
  /** For the start-up line, without passwords: "db /srv/petstore.json" or "db postgres://…, limits redis://…". */
  description: string;
}

export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

/** Opens the store, then the limiter; closes the store again when the limiter cannot start. */
export async function openBackends(options: BackendOptions): Promise<Backends> {
  const postgres = isPostgresUrl(options.db);
  const dbPath = postgres ? options.db : resolve(options.db);
  const store = postgres
    ? await openPostgresStore(options.db, { warn: options.warn })
    : await openLowdbStore(dbPath, { warn: options.warn });
  try {
    const limiter = await openLimiter(options, postgres ? undefined : dbPath);
    const db = `db ${postgres ? redactUrl(options.db) : dbPath}`;
    const description = options.redis ? `${db}, limits ${redactUrl(options.redis)}` : db;
    return { store, limiter, description };
  } catch (error) {
    await store.close();
    throw error;
  }
}

async function openLimiter(options: BackendOptions, dbPath: string | undefined): Promise<RateLimiter> {
  const { ban, now, warn } = options;
  if (options.redis) return openRedisRateLimiter(options.redis, { ban, now, warn });
  if (dbPath) return openMemoryRateLimiter({ persister: filePersister(`${dbPath}.limits.json`), ban, now, warn });
  warn(
    "PostgreSQL without --redis: rate limits and bans are counted in this process only, so each instance " +
      "allows the full limit and the counters are lost at restart; pass --redis redis://... to share them",
  );
  return new MemoryRateLimiter({ ban, now, warn });
}
