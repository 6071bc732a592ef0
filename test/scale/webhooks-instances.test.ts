// Two servers over one PostgreSQL database and an always-200 receiver: each event is delivered
// exactly once (FOR UPDATE SKIP LOCKED and a lease), whichever instance made the change.
import { afterAll, beforeAll, expect, it } from "vitest";
import { freshDatabase } from "../helpers/test-backend.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { startReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.js";

let a: TestServer;
let b: TestServer;
let receiver: WebhookReceiver;
beforeAll(async () => {
  const { db, redis } = await freshDatabase();
  const webhooks = { allowPrivate: true, pollMs: 10 };
  a = await startTestServer({ db, redis, webhooks });
  b = await startTestServer({ db, redis, webhooks });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await Promise.all([a?.close(), b?.close()]);
});

it("sends each event once when two instances deliver from one database", { timeout: 60_000 }, async () => {
  const added = await a.api("/webhooks", { json: { url: receiver.url, types: ["pet.created"] } });
  expect(added.status).toBe(201);
  const creates = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? a : b).api("/pets", { json: { name: `pet ${i}`, categoryId: 1 } }));
  expect((await Promise.all(creates)).every((response) => response.status === 201)).toBe(true);
  await receiver.waitFor(200, 30_000);
  // Time for any second send to arrive.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const ids = receiver.received.map((request) => String(request.headers["webhook-id"]));
  expect(ids).toHaveLength(200);
  expect(new Set(ids).size).toBe(200);
});
