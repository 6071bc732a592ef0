// PostgreSQL's whole data with webhook endpoints and deliveries, written and read in process:
// every field and both counters come back, and an answer a file store kept with a NUL byte
// (which PostgreSQL's text refuses) no longer stops a migration.
import { describe, expect, it } from "vitest";
import { emptyStoreData, pendingDelivery, type StoreData } from "../../src/store/indexed/store-state.js";
import { readPostgresData, writePostgresData } from "../../src/store/postgres/postgres-data.js";
import type { WebhookRecord } from "../../src/store/webhook-store.js";
import { freshDatabase } from "../helpers/test-backend.js";

const AT = "2026-11-27T09:00:00.123Z";
const endpoint = (id: number, enabled: boolean): WebhookRecord => ({
  id,
  url: `https://hooks.example.com/${id}`,
  types: id === 2 ? [] : ["pet.created", "order.created"],
  description: id === 2 ? null : "orders desk",
  enabled,
  secret: `whsec_${Buffer.alloc(32, id).toString("base64")}`,
  previousSecret: id === 2 ? `whsec_${Buffer.alloc(32, 9).toString("base64")}` : null,
  previousSecretUntil: id === 2 ? "2026-11-28T09:00:00.000Z" : null,
  createdAt: AT,
  updatedAt: "2026-11-27T09:30:00.456Z",
});
const payload = (n: number) => `{"id":${n},"type":"pet.created","timestamp":"${AT}","data":{"id":1,"name":"Rex \\u00e9 ✓","categoryId":1,"status":"available"}}`;

function storeWithWebhooks(lastResponse: string): StoreData {
  const failed = { ...pendingDelivery(4, 2, 7, "pet.created", payload(7), AT), status: "failed" as const, attempts: 9, nextAttemptAt: null, lastAttemptAt: AT, lastStatusCode: null, lastError: "ECONNREFUSED: connect refused", lastResponse: null, lastDurationMs: 0.25 };
  const succeeded = { ...pendingDelivery(5, 2, null, "webhook.test", payload(8), AT), status: "succeeded" as const, attempts: 1, nextAttemptAt: null, lastAttemptAt: AT, lastStatusCode: 204, lastError: null, lastResponse, lastDurationMs: 31.5 };
  const retrying = { ...pendingDelivery(8, 2, 9, "pet.created", payload(9), AT), attempts: 2, nextAttemptAt: "2026-11-27T10:00:00.000Z", lastAttemptAt: AT, lastStatusCode: 503, lastError: "answered 503", lastResponse: "later", lastDurationMs: 12 };
  return { ...emptyStoreData(), nextWebhookId: 5, webhooks: [endpoint(2, true), endpoint(3, false)], nextDeliveryId: 11, deliveries: [failed, succeeded, retrying, pendingDelivery(9, 3, 9, "pet.created", payload(9), AT)] };
}

describe("PostgreSQL's whole data", () => {
  it("gives back every webhook endpoint and delivery field for field, and both counters", async () => {
    const { db } = await freshDatabase();
    const data = storeWithWebhooks("thanks ✓");
    await writePostgresData(db, data);
    const read = await readPostgresData(db);
    expect({ nextWebhookId: read.nextWebhookId, webhooks: read.webhooks, nextDeliveryId: read.nextDeliveryId, deliveries: read.deliveries }).toEqual({
      nextWebhookId: 5,
      webhooks: data.webhooks,
      nextDeliveryId: 11,
      deliveries: data.deliveries,
    });
  });

  it("keeps an answer holding a NUL byte as U+FFFD, as the server now keeps it, rather than refuse the whole import", async () => {
    const { db } = await freshDatabase();
    await writePostgresData(db, storeWithWebhooks("ok\u0000binary"));
    const read = await readPostgresData(db);
    expect(read.deliveries?.find((delivery) => delivery.id === 5)?.lastResponse).toBe("ok\ufffdbinary");
  });
});
