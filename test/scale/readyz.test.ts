// /readyz over PostgreSQL and Redis, with each taken away for real: 503 naming the part that did
// not answer within a second, 200 again once it is back. /healthz stays 200 throughout.
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { expectError } from "../helpers/assertions.js";
import { startRedis } from "../helpers/engines.js";
import { engineUrls, freshDatabase } from "../helpers/test-backend.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

let server: TestServer;
let admin: pg.Client;
beforeAll(async () => {
  server = await startTestServer();
  admin = new pg.Client({ connectionString: engineUrls().postgresUrl });
  await admin.connect();
});
afterAll(async () => {
  await admin.end();
  await server.close();
});

const ready = () => fetch(`${server.origin}/readyz`);

it("answers 503 naming the store while PostgreSQL refuses connections, then 200", async () => {
  expect((await ready()).status).toBe(200);
  const database = new URL(server.dbPath).pathname.slice(1);
  await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
  await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [database]);
  try {
    const message = await expectError(await ready(), 503, "storage_unavailable");
    expect(message).toMatch(/^not ready: store: /);
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
  } finally {
    await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
  }
  expect((await ready()).status).toBe(200);
});

it("answers 503 naming Redis while it does not answer within a second, then 200", async () => {
  const redis = await startRedis();
  const { db } = await freshDatabase();
  const limited = await startTestServer({ db, redis: redis.url });
  const control = new Redis(redis.url);
  try {
    expect((await fetch(`${limited.origin}/readyz`)).status).toBe(200);
    await control.call("CLIENT", "PAUSE", "2500", "ALL");
    const started = Date.now();
    const message = await expectError(await fetch(`${limited.origin}/readyz`), 503, "storage_unavailable");
    expect(message).toBe("not ready: limits (Redis): no answer within 1000 ms");
    expect(Date.now() - started).toBeLessThan(2000);
    await control.call("CLIENT", "UNPAUSE");
    await expect.poll(async () => (await fetch(`${limited.origin}/readyz`)).status, { timeout: 5000 }).toBe(200);
  } finally {
    control.disconnect();
    await limited.close();
    await redis.stop();
  }
});
