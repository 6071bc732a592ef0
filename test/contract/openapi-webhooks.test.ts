// The document's `webhooks` section: an entry for every type a delivery can carry (the types taken
// from the sources that define them, not from a list here), each a POST with the Standard Webhooks
// headers, a 2XX that accepts, and an example its own body schema accepts.
import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../src/contract/events.js";
import { buildOpenApiDocument } from "../../src/contract/openapi.js";
import { WEBHOOK_BODY_TYPES } from "../../src/contract/webhook-events.js";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT, WebhookDeliverySchema } from "../../src/contract/webhook-schemas.js";
import { componentValidator } from "../helpers/conformance.js";

/* eslint-disable @typescript-eslint/no-explicit-any -- a parsed document walked by its keys */
const doc = buildOpenApiDocument() as any;
const entries = Object.entries(doc.webhooks ?? {}) as [string, any][];
const componentOf = (schema: { $ref: string }) => schema.$ref.replace("#/components/schemas/", "");
const parameter = (ref: { $ref: string }) => doc.components.parameters[ref.$ref.split("/").pop()!];

describe("the document's webhooks", () => {
  it("has an entry for every event type there is: the stream's, the endpoint's, the test's and the deliveries' listing's", () => {
    const types = new Set<string>([...EVENT_TYPES, ...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT, ...WebhookDeliverySchema.shape.type.options]);
    expect(new Set(Object.keys(doc.webhooks ?? {}))).toEqual(types);
    expect(new Set(WEBHOOK_BODY_TYPES)).toEqual(types);
  });

  it.each(entries)("%s: a described POST under the Webhooks tag, with no API key and a unique operationId", (_type, entry) => {
    expect(Object.keys(entry)).toEqual(["post"]);
    expect(entry.post).toMatchObject({ tags: ["Webhooks"], security: [], summary: expect.any(String), description: expect.stringContaining("Standard Webhooks") });
    expect(entry.post.operationId).toMatch(/^[a-z][A-Za-z]+$/);
    const all = [...Object.values(doc.paths).flatMap((item: any) => Object.values(item)), ...entries.map(([, other]) => other.post)];
    expect(all.filter((operation: any) => operation.operationId === entry.post.operationId)).toHaveLength(1);
  });

  it.each(entries)("%s: the three Standard Webhooks headers, required", (_type, entry) => {
    const headers = entry.post.parameters.map(parameter);
    expect(headers.map((header: any) => [header.name, header.in, header.required])).toEqual([
      ["webhook-id", "header", true],
      ["webhook-timestamp", "header", true],
      ["webhook-signature", "header", true],
    ]);
  });

  it.each(entries)("%s: a 2XX accepts, and the description says what else is retried", (_type, entry) => {
    expect(Object.keys(entry.post.responses)).toEqual(["2XX"]);
    expect(entry.post.responses["2XX"].description).toMatch(/Any other answer .* is retried/);
  });

  it.each(entries)("%s: the body is its type's component, in WebhookEvent's mapping, and the example passes it", (type, entry) => {
    const body = entry.post.requestBody;
    expect(body.required).toBe(true);
    const media = body.content["application/json"];
    const name = componentOf(media.schema);
    expect(doc.components.schemas.WebhookEvent.discriminator.mapping[type]).toBe(media.schema.$ref);
    expect(doc.components.schemas[name].properties.type).toMatchObject({ const: type });
    expect(media.example.type).toBe(type);
    const validate = componentValidator(name);
    expect(validate(media.example), JSON.stringify(validate.errors)).toBe(true);
    expect(componentValidator("WebhookEvent")(media.example)).toBe(true);
  });

  it("WebhookEvent takes exactly one type's body: another type's data, a missing field or an extra one is refused", () => {
    const validate = componentValidator("WebhookEvent");
    const created = doc.webhooks["pet.created"].post.requestBody.content["application/json"].example;
    const order = doc.webhooks["order.created"].post.requestBody.content["application/json"].example;
    expect(validate(created)).toBe(true);
    expect(validate({ ...created, data: order.data })).toBe(false);
    expect(validate({ ...created, type: "pet.sold" })).toBe(false);
    const { timestamp: _dropped, ...untimed } = created;
    expect(validate(untimed)).toBe(false);
    expect(validate({ ...created, extra: 1 })).toBe(false);
    expect(validate({ ...created, id: null })).toBe(false);
  });
});
