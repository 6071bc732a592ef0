import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, expectRateLimitHeaders, json } from "../helpers/assertions.js";
import { createKey, startTestServer, type TestServer } from "../helpers/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("POST /v1/keys (admin)", () => {
  it.each([
    ["free", { perMinute: 60, perDay: 1000 }],
    ["pro", { perMinute: 300, perDay: 10000 }],
    ["business", { perMinute: 1000, perDay: 100000 }],
  ])("creates a %s key with the plan's limits; the secret is ps_ and 32+ base62", async (plan, limits) => {
    const response = await server.api("/keys", { json: { plan, name: `ci-${plan}` } });
    expect(response.status).toBe(201);
    const body = await json(response);
    expect(Object.keys(body).sort()).toEqual(["createdAt", "id", "key", "limits", "name", "plan", "prefix", "scopes"]);
    expect(body).toMatchObject({ plan, name: `ci-${plan}`, limits });
    expect(body.key).toMatch(/^ps_[0-9A-Za-z]{32,}$/);
    expect(body.key.startsWith(body.prefix)).toBe(true);
    expect(body.prefix.length).toBeLessThan(body.key.length / 2);
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
    expectRateLimitHeaders(response);
  });

  it("creates an enterprise key with its own limits", async () => {
    const body = await json(await server.api("/keys", { json: { plan: "enterprise", perMinute: 5000, perDay: 900000 } }));
    expect(body).toMatchObject({ plan: "enterprise", name: null, limits: { perMinute: 5000, perDay: 900000 } });
  });

  it.each([
    [{}, /plan: is required/],
    [{ plan: "gold" }, /plan: must be one of free, pro, business, enterprise/],
    [{ plan: "enterprise", perDay: 10 }, /perMinute: is required for the enterprise plan/],
    [{ plan: "enterprise", perMinute: 10 }, /perDay: is required for the enterprise plan/],
    [{ plan: "pro", perMinute: 10 }, /perMinute: is only accepted for the enterprise plan/],
    [{ plan: "enterprise", perMinute: 0, perDay: 1 }, /perMinute: must be at least 1/],
    [{ plan: "free", name: "" }, /name: must not be empty/],
    [{ plan: "free", secret: "x" }, /unknown field "secret"/],
  ])("refuses %j with 400 invalid_body naming the field", async (body, message) => {
    expect(await expectError(await server.api("/keys", { json: body }), 400, "invalid_body")).toMatch(message);
  });

  it("refuses other keys with 403 forbidden", async () => {
    const { key } = await createKey(server, { plan: "business" });
    await expectError(await server.api("/keys", { key, json: { plan: "free" } }), 403, "forbidden");
    await expectError(await server.api("/keys", { key }), 403, "forbidden");
    await expectError(await server.api("/keys/key_whatever", { key, method: "DELETE" }), 403, "forbidden");
  });
});

describe("GET /v1/keys and DELETE /v1/keys/{id}", () => {
  it("lists keys without secrets or hashes", async () => {
    const created = await createKey(server, { plan: "pro", name: "listed" });
    const response = await server.api("/keys");
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).not.toContain(created.key);
    expect(text).not.toMatch(/"hash"|[0-9a-f]{64}/);
    const listed = (JSON.parse(text) as { id: string }[]).find((key) => key.id === created.id);
    expect(listed).toMatchObject({ plan: "pro", name: "listed", admin: false, revokedAt: null, lastUsedAt: null });
  });

  it("revokes a key: 204, refused from the very next request, revokedAt set", async () => {
    const { id, key } = await createKey(server, { plan: "free" });
    expect((await server.api("/pets", { key })).status).toBe(200);
    const response = await server.api(`/keys/${id}`, { method: "DELETE" });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    const refused = await server.api("/pets", { key });
    expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="petstore"');
    expect(await expectError(refused, 401, "unauthorized")).toMatch(/revoked/);
    const listed = (await json(await server.api("/keys"))).find((k: { id: string }) => k.id === id);
    expect(listed.revokedAt).toEqual(expect.any(String));
    expect(listed.lastUsedAt).toEqual(expect.any(String));
  });

  it("answers an unknown id with 404 not_found", async () => {
    await expectError(await server.api("/keys/key_doesnotexist", { method: "DELETE" }), 404, "not_found");
  });
});

describe("authentication on every /v1 operation", () => {
  const cases: [string, Record<string, string>][] = [
    ["no Authorization header", {}],
    ["another scheme", { authorization: `Basic ${Buffer.from("a:b").toString("base64")}` }],
    ["Bearer with nothing", { authorization: "Bearer " }],
    ["an unknown key", { authorization: "Bearer ps_0000000000000000000000000000000000000000" }],
  ];
  for (const [label, headers] of cases) {
    for (const [method, path] of [["GET", "/pets"], ["POST", "/pets"], ["GET", "/pets/1"], ["GET", "/keys"]] as const) {
      it(`${label}: ${method} ${path} is 401 with WWW-Authenticate and the rate-limit headers`, async () => {
        const response = await server.api(path, { method, key: null, headers });
        expect(response.headers.get("www-authenticate")).toBe('Bearer realm="petstore"');
        expectRateLimitHeaders(response);
        await expectError(response, 401, "unauthorized");
      });
    }
  }

  it("accepts the scheme in any case", async () => {
    const response = await server.api("/pets", { key: null, headers: { authorization: `bearer ${server.adminKey}` } });
    expect(response.status).toBe(200);
  });
});
