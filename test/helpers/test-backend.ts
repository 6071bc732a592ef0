// Which engines startTestServer uses: the lowdb file (the "lowdb" project) or a fresh PostgreSQL
// database plus its own Redis database (the "postgres" project, see vitest.config.ts).
import { Redis } from "ioredis";
import pg from "pg";
import { inject } from "vitest";
import { REDIS_DATABASES } from "./engines.js";

export type TestBackend = "lowdb" | "postgres";

export function testBackend(): TestBackend {
  return inject("backend") ?? "lowdb";
}

export interface TestDatabase {
  /** postgres://.../petstore_test_<n> */
  db: string;
  /** redis://.../<n>: the same n, so a restart on the same db URL finds its counters again. */
  redis: string;
}

/** A new, empty PostgreSQL database and an unused Redis database, unique across test workers. */
export async function freshDatabase(): Promise<TestDatabase> {
  const { postgresUrl, redisUrl } = engineUrls();
  // Redis database 0 holds the counter that hands out numbers; tests use 1 and up.
  const counter = new Redis(redisUrl);
  const n = await counter.incr("petstore-test:databases").finally(() => counter.quit());
  if (n >= REDIS_DATABASES) throw new Error(`more than ${REDIS_DATABASES - 1} test databases in one run`);
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE petstore_test_${n}`);
  } finally {
    await admin.end();
  }
  return { db: databaseUrl(postgresUrl, `petstore_test_${n}`), redis: `${redisUrl}/${n}` };
}

/** The Redis URL that belongs with a database URL from freshDatabase(). */
export function redisFor(db: string): string {
  const n = /petstore_test_(\d+)$/.exec(new URL(db).pathname)?.[1];
  if (n === undefined) throw new Error(`${db} did not come from freshDatabase()`);
  return `${engineUrls().redisUrl}/${n}`;
}

export function engineUrls(): { postgresUrl: string; redisUrl: string } {
  const postgresUrl = inject("postgresUrl");
  const redisUrl = inject("redisUrl");
  if (!postgresUrl || !redisUrl) throw new Error("no test PostgreSQL/Redis: run this file in the vitest project \"postgres\"");
  return { postgresUrl, redisUrl };
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.href;
}
