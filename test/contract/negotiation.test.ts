// Accept: an answer the client says it cannot read is a 406 with the Error body, not JSON anyway.
// And the bounds the third-party linters asked for, enforced as the document states them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accepts } from "../../src/server/internal/negotiation.js";
import { expectError, expectRateLimitHeaders } from "../helpers/assertions.js";
import { openSse } from "../helpers/sse-client.js";
import { createKey, startTestServer, type TestServer } from "../helpers/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ maxKeys: 2 });
});
afterAll(() => server.close());

describe("accepts(Accept, answer)", () => {
  it.each([
    [null, "application/json", true],
    ["", "application/json", true],
    ["application/json", "application/json", true],
    ["application/json; charset=utf-8", "application/json", true],
    ["*/*", "application/json", true],
    ["application/*", "application/json", true],
    ["text/html, application/xhtml+xml, application/xml;q=0.9, */*;q=0.8", "application/json", true],
    ["application/xml", "application/json", false],
    ["application/problem+json", "application/json", false],
    ["text/*", "application/json", false],
    ["application/json;q=0", "application/json", false],
    ["application/json;q=0, */*", "application/json", false],
    ["*/*;q=0", "application/json", false],
    ["application/*;q=0, application/json;q=0.1", "application/json", true],
    ["text/event-stream", "text/event-stream", true],
    ["text/*", "text/event-stream", true],
    ["application/json", "text/event-stream", false],
  ] as const)("%j for %s: %s", (accept, answer, expected) => {
    expect(accepts(accept, answer)).toBe(expected);
  });
});

describe("406 not_acceptable", () => {
  it.each([
    ["GET", "/pets", "application/xml"],
    ["GET", "/pets", "application/json;q=0, */*"],
    ["GET", "/openapi.json", "text/html"],
    ["GET", "/store/inventory", "application/problem+json"],
  ])("%s %s with Accept: %s", async (method, path, accept) => {
    const response = await server.api(path, { method, headers: { accept } });
    expect(response.headers.get("content-type")).toBe("application/json");
    expectRateLimitHeaders(response);
    const message = await expectError(response, 406, "not_acceptable");
    expect(message).toMatch(/^this operation answers application\/json only/);
  });

  it("comes after the key check: a bad key with a bad Accept is 401", async () => {
    await expectError(await server.api("/pets", { key: "ps_nope", headers: { accept: "application/xml" } }), 401, "unauthorized");
  });

  it("refuses a write before it happens", async () => {
    const refused = await server.api("/pets", { json: { name: "Xml", categoryId: 1 }, headers: { accept: "application/xml" } });
    await expectError(refused, 406, "not_acceptable");
    const listed = (await (await server.api("/pets")).json()) as Array<{ name: string }>;
    expect(listed.map((pet) => pet.name)).not.toContain("Xml");
  });

  it("leaves the event stream to its own type: text/event-stream opens it, application/json alone is 406", async () => {
    await expectError(await server.api("/events", { headers: { accept: "application/json" } }), 406, "not_acceptable");
    const stream = await openSse(`${server.baseUrl}/events`, server.adminKey, { accept: "text/event-stream" });
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    // Never compressed, whatever Accept-Encoding fetch sent: events must arrive as they happen.
    expect(stream.response.headers.get("content-encoding")).toBeNull();
    stream.close();
  });

  it("does not judge the probes' Accept: /healthz answers application/xml askers too", async () => {
    const response = await fetch(`${server.baseUrl.replace(/\/v1$/, "")}/healthz`, { headers: { accept: "application/xml" } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });
});

describe("the bounds the document states, enforced", () => {
  it.each([
    ["/pets?cursor=" + "A".repeat(33), "cursor is not a cursor this server issued; follow the Link header of the previous page"],
    ["/events?types=" + "pet.created,".repeat(21) + "pet.created", "types must be at most 256 characters"],
  ])("GET %s is 400 invalid_parameter", async (path, message) => {
    expect(await expectError(await server.api(path), 400, "invalid_parameter")).toBe(message);
  });

  it("an If-None-Match or If-Match over 1024 characters is 400 invalid_parameter", async () => {
    const tags = Array.from({ length: 100 }, (_, i) => `"pet-${i}-1"`).join(", ");
    expect(tags.length).toBeGreaterThan(1024);
    expect(await expectError(await server.api("/pets", { headers: { "if-none-match": tags } }), 400, "invalid_parameter")).toBe(
      "If-None-Match must be at most 1024 characters",
    );
    const created = await server.api("/pets", { json: { name: "Bounded", categoryId: 1 } });
    const { id } = (await created.json()) as { id: number };
    const patch = await server.api(`/pets/${id}`, { method: "PATCH", json: { name: "Changed" }, headers: { "if-match": tags } });
    expect(await expectError(patch, 400, "invalid_parameter")).toBe("If-Match must be at most 1024 characters");
  });

  it("an expiresAt over 40 characters is 400 invalid_body", async () => {
    const expiresAt = `2099-01-01T00:00:00.${"0".repeat(20)}Z`;
    const response = await server.api("/keys", { json: { plan: "free", expiresAt } });
    expect(await expectError(response, 400, "invalid_body")).toBe("invalid body: expiresAt: must be at most 40 characters");
  });

  it("a store that holds the most keys refuses another with 507 too_many_keys, and lists at most that many", async () => {
    // The environment admin is never stored: this server's limit of 2 leaves room for two.
    await createKey(server, { plan: "free", name: "one" });
    await createKey(server, { plan: "free", name: "two" });
    const refused = await server.api("/keys", { json: { plan: "free", name: "three" } });
    expectRateLimitHeaders(refused);
    expect(await expectError(refused, 507, "too_many_keys")).toBe(
      "the store already holds 2 keys, revoked ones included: remove revoked keys from the db first",
    );
    expect(((await (await server.api("/keys")).json()) as unknown[]).length).toBe(2);
  });
});
