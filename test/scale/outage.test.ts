// PostgreSQL or Redis going away under a running server: the server answers 503 instead of
// crashing or pretending, and recovers by itself once the engine is back.
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
  // The environment admin key authenticates without the database, so the create reaches the store.
  server = await startTestServer();
  admin = new pg.Client({ connectionString: engineUrls().postgresUrl });
  await admin.connect();
});
afterAll(async () => {
  await admin.end();
  await server.close();
});

const database = () => new URL(server.dbPath).pathname.slice(1);

async function cutOff(allow: boolean): Promise<void> {
  await admin.query(`ALTER DATABASE ${database()} ALLOW_CONNECTIONS ${allow}`);
  if (!allow) await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [database()]);
}

it("answers a create 503 storage_unavailable while the database refuses connections, then 201 again", async () => {
  expect((await server.api("/pets", { json: { name: "before", categoryId: 1 } })).status).toBe(201);
  await cutOff(false);
  const refused = await server.api("/pets", { json: { name: "during", categoryId: 1 } });
  expect(refused.headers.get("retry-after")).toBe("5");
  await expectError(refused, 503, "storage_unavailable");
  const unread = await server.api("/pets");
  expect(unread.headers.get("retry-after")).toBe("5");
  await expectError(unread, 503, "storage_unavailable");
  expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
  await cutOff(true);
  const created = await server.api("/pets", { json: { name: "after", categoryId: 1 } });
  expect(created.status).toBe(201);
  expect(await created.json()).toEqual({ id: 2, name: "after", categoryId: 1, status: "available" });
});

it("answers 503 storage_unavailable while Redis does not answer, without waiving the limits, then 200 again", async () => {
  const redis = await startRedis();
  const { db } = await freshDatabase();
  const limited = await startTestServer({ db, redis: redis.url });
  const control = new Redis(redis.url);
  try {
    expect((await limited.api("/pets")).status).toBe(200);
    // Every client but this one stalls for 4 s: longer than the limiter's 2 s command timeout.
    await control.call("CLIENT", "PAUSE", "4000", "ALL");
    const refused = await limited.api("/pets");
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(refused.headers.get("x-ratelimit-remaining")).toBeNull();
    await expectError(refused, 503, "storage_unavailable");
    await control.call("CLIENT", "UNPAUSE");
    const served = await limited.api("/pets");
    expect(served.status).toBe(200);
    expect(served.headers.get("x-ratelimit-remaining")).not.toBeNull();
  } finally {
    control.disconnect();
    await limited.close();
    await redis.stop();
  }
});
