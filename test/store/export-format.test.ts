// The export format's webhook lines: which version a store's export is written as, the counters
// kept even when every endpoint was removed, and the exports an import must refuse.
import { describe, expect, it } from "vitest";
import { exportLines, parseExport } from "../../src/store/transfer/export-format.js";
import { emptyStoreData, pendingDelivery, type StoreData } from "../../src/store/indexed/store-state.js";
import type { WebhookRecord } from "../../src/store/webhook-store.js";

const AT = "2026-11-27T09:00:00.000Z";
const endpoint: WebhookRecord = {
  id: 3,
  url: "https://hooks.example.com/petstore",
  types: ["pet.created"],
  description: "orders desk",
  enabled: true,
  secret: `whsec_${Buffer.alloc(32, 7).toString("base64")}`,
  previousSecret: `whsec_${Buffer.alloc(32, 8).toString("base64")}`,
  previousSecretUntil: "2026-11-28T09:00:00.000Z",
  createdAt: AT,
  updatedAt: AT,
};
// A body with characters JSON may write in more than one way: it must come back as these bytes.
const payload = '{"id":9,"type":"pet.created","timestamp":"2026-11-27T09:00:00.000Z","data":{"id":1,"name":"Rex \\u00e9 ✓ \\"q\\"","categoryId":1,"status":"available"}}';
const sent = { ...pendingDelivery(5, 3, 9, "pet.created", payload, AT), status: "failed" as const, attempts: 4, nextAttemptAt: null, lastAttemptAt: AT, lastStatusCode: 500, lastError: "HTTP 500", lastResponse: "busy ✗", lastDurationMs: 12.375 };

const withWebhooks = (): StoreData => ({ ...emptyStoreData(), nextWebhookId: 4, webhooks: [endpoint], nextDeliveryId: 7, deliveries: [sent, pendingDelivery(6, 3, 10, "pet.created", payload, AT)] });
const text = (data: StoreData) => [...exportLines(data)].join("");
const lines = (data: StoreData) => text(data).trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);

describe("the export of webhook endpoints and deliveries", () => {
  it("is version 3, with both counters in the header and both counts in the end line, and reads back the same", () => {
    const written = lines(withWebhooks());
    expect(written[0]).toEqual({ format: "petstore-export", version: 3, nextPetId: 1, nextOrderId: 1, nextWebhookId: 4, nextDeliveryId: 7 });
    expect(written.slice(1, -1).map((line) => line.type)).toEqual(["webhook", "delivery", "delivery"]);
    expect(written.at(-1)).toEqual({ type: "end", counts: { pets: 0, keys: 0, orders: 0, idempotency: 0, webhooks: 1, deliveries: 2 } });
    const read = parseExport(text(withWebhooks()));
    expect(read).toEqual(withWebhooks());
    expect(read.deliveries?.[0]?.payload).toBe(payload);
  });

  it("keeps the counters of a store whose endpoints were all removed, so no delivery id comes back", () => {
    const emptied: StoreData = { ...emptyStoreData(), nextWebhookId: 4, webhooks: [], nextDeliveryId: 7, deliveries: [] };
    expect(lines(emptied)[0]).toMatchObject({ version: 3, nextWebhookId: 4, nextDeliveryId: 7 });
    expect(parseExport(text(emptied))).toEqual(emptied);
  });

  it("is version 2, as before, for a store that never had an endpoint", () => {
    const written = lines(emptyStoreData());
    expect(written).toEqual([
      { format: "petstore-export", version: 2, nextPetId: 1, nextOrderId: 1 },
      { type: "end", counts: { pets: 0, keys: 0, orders: 0, idempotency: 0 } },
    ]);
    expect(parseExport(text(emptyStoreData()))).toEqual(emptyStoreData());
  });

  it("refuses a delivery whose endpoint is not in the export, and one cut short of a delivery", () => {
    const orphan = text({ ...withWebhooks(), webhooks: [] });
    expect(() => parseExport(orphan)).toThrow("delivery 5 is to webhook endpoint 3, which the export does not hold");
    const cut = text(withWebhooks())
      .split("\n")
      .filter((line) => !line.includes('"id":6,'))
      .join("\n");
    expect(() => parseExport(cut)).toThrow("the end line says 2 deliveries, found 1 deliveries");
  });
});
