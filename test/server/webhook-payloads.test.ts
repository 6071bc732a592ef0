// What a receiver really gets is what the document's `webhooks` section says: every body a real
// server delivered, verified by the standardwebhooks package, passes the schema of its type's
// entry, and the union every receiver can use.
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../src/contract/openapi.js";
import { WEBHOOK_BODY_TYPES, type WebhookBodyType } from "../../src/contract/webhook-events.js";
import { json } from "../helpers/assertions.js";
import { componentValidator } from "../helpers/conformance.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { startReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.js";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

// Caused only by a retry window running out: test/server/webhook-auto-disable.test.ts checks the
// webhook.disabled it delivers against its entry, on a test clock.
const CAUSED_ELSEWHERE = new Set<WebhookBodyType>(["webhook.disabled"]);

const MERGE_PATCH = { "content-type": "application/merge-patch+json" };

/** Causes one delivery of every type the server sends: each change, then a test. */
async function causeEveryType(server: TestServer, webhookId: number): Promise<void> {
  const pet = await json(await server.api("/pets", { json: { name: "Rex", categoryId: 1 } }));
  await server.api(`/pets/${pet.id}`, { method: "PATCH", json: { name: "Eve" }, headers: MERGE_PATCH });
  const order = await json(await server.api("/store/orders", { json: { petId: pet.id } }));
  await server.api(`/store/orders/${order.id}`, { method: "PATCH", json: { status: "cancelled" }, headers: MERGE_PATCH });
  const doomed = await json(await server.api("/pets", { json: { name: "Gone", categoryId: 2 } }));
  expect((await server.api(`/pets/${doomed.id}`, { method: "DELETE" })).status).toBe(204);
  expect((await server.api(`/webhooks/${webhookId}/test`, { method: "POST" })).status).toBe(200);
}

describe("a delivered body", () => {
  it("of every type the server sends is what the document's webhooks entry for that type describes", async () => {
    const server = await startTestServer({ webhooks: { allowPrivate: true, pollMs: 20, timeoutMs: 2_000, random: () => 0.5 } });
    open.push(server);
    const hook = await startReceiver();
    open.push(hook);
    const endpoint = await json(await server.api("/webhooks", { json: { url: hook.url } }));
    await causeEveryType(server, endpoint.id);
    const expected = WEBHOOK_BODY_TYPES.filter((type) => !CAUSED_ELSEWHERE.has(type));
    const bodies = verifiedBodies(await untilEveryType(hook, expected), endpoint.secret);
    expect(new Set(bodies.map((body) => body.type))).toEqual(new Set(expected));

    const doc = buildOpenApiDocument() as { webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }> };
    for (const body of bodies) {
      const name = doc.webhooks[body.type]!.post.requestBody.content["application/json"]!.schema.$ref.split("/").pop()!;
      const validate = componentValidator(name);
      expect(validate(body), `${body.type} ${JSON.stringify(body)}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(componentValidator("WebhookEvent")(body)).toBe(true);
    }
  });
});

/** Every request until each expected type has come (deliveries run side by side: in any order). */
async function untilEveryType(hook: WebhookReceiver, expected: readonly string[]): Promise<WebhookReceiver["received"]> {
  const missing = () => expected.filter((type) => !hook.received.some((request) => (JSON.parse(request.body) as { type: string }).type === type));
  while (missing().length > 0) await hook.waitFor(hook.received.length + 1);
  return hook.received;
}

function verifiedBodies(received: WebhookReceiver["received"], secret: string): Array<{ type: string }> {
  const verifier = new Webhook(secret);
  return received.map((request) => {
    const headers = Object.fromEntries(["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [name, String(request.headers[name])]));
    return verifier.verify(request.body, headers) as { type: string };
  });
}
