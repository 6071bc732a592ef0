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

/**
 * The first answer of `origin`'s /readyz that is not 200: a round of checks answers the probes
 * of the second after it (READY_REUSE_MS), so a part that just went away shows within that.
 */
async function notReady(origin: string): Promise<Response> {
  const deadline = Date.now() + 3_000;
  for (;;) {
    const response = await fetch(`${origin}/readyz`);
    if (response.status !== 200 || Date.now() > deadline) return response;
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it("answers 503 naming the store while PostgreSQL refuses connections, then 200", async () => {
  expect((await ready()).status).toBe(200);
  const database = new URL(server.dbPath).pathname.slice(1);
  await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
  await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [database]);
  try {
    const message = await expectError(await notReady(server.origin), 503, "storage_unavailable");
    expect(message).toMatch(/^not ready: store: /);
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
  } finally {
    await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
  }
  await expect.poll(async () => (await ready()).status, { timeout: 5000 }).toBe(200);
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
    const message = await expectError(await notReady(limited.origin), 503, "storage_unavailable");
    expect(message).toBe("not ready: limits (Redis): no answer within 1000 ms");
    // At most a second of an earlier round's answer, then the check's own deadline.
    expect(Date.now() - started).toBeLessThan(3000);
    await control.call("CLIENT", "UNPAUSE");
    await expect.poll(async () => (await fetch(`${limited.origin}/readyz`)).status, { timeout: 5000 }).toBe(200);
  } finally {
    control.disconnect();
    await limited.close();
    await redis.stop();
  }
});
