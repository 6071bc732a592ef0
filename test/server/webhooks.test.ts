// The Webhooks tag over both engines (the "lowdb" and "postgres" vitest projects run this file):
// adding, listing, reading, changing and removing endpoints; who may; what input is refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, json } from "../helpers/assertions.js";
import { createKey, startTestServer, type TestServer } from "../helpers/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const add = (body: unknown, key?: string) => server.api("/webhooks", { json: body, key });
const added = async (body: Record<string, unknown> = {}) => json(await add({ url: "https://93.184.215.14/in", ...body }));
const patch = (id: number, body: unknown) => server.api(`/webhooks/${id}`, { method: "PATCH", json: body });
const ENDPOINT_FIELDS = ["createdAt", "description", "enabled", "id", "types", "updatedAt", "url"];

describe("POST /v1/webhooks", () => {
  it("answers 201 with the endpoint, Location and a whsec_ secret of 32 bytes, shown only there", async () => {
    const response = await add({ url: "https://93.184.215.14/in", types: ["pet.created", "order.created"], description: "shop" });
    expect(response.status).toBe(201);
    const created = await json(response);
    expect(created).toMatchObject({ url: "https://93.184.215.14/in", types: ["pet.created", "order.created"], description: "shop", enabled: true });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), "base64")).toHaveLength(32);
    expect(response.headers.get("location")).toBe(`/v1/webhooks/${created.id}`);
    const read = await json(await server.api(`/webhooks/${created.id}`));
    expect(Object.keys(read).sort()).toEqual(ENDPOINT_FIELDS);
    expect(JSON.stringify(read)).not.toContain(created.secret.slice(6));
    const listed = await json(await server.api("/webhooks?limit=100"));
    expect(JSON.stringify(listed)).not.toContain(created.secret.slice(6));
  });

  it("takes every type when none is given, and gives each endpoint its own secret", async () => {
    const [a, b] = [await added(), await added()];
    expect(a.types).toEqual([]);
    expect(a.description).toBeNull();
    expect(a.secret).not.toBe(b.secret);
    expect(b.id).toBeGreaterThan(a.id);
  });

  it.each([
    ["an ftp URL", { url: "ftp://hooks.example/in" }, /^invalid body: url: must be an http or https URL/],
    ["no URL at all", { url: "not a url" }, /^invalid body: url: must be an absolute http or https URL/],
    ["a URL of 2,062 characters", { url: `https://93.184.215.14/${"a".repeat(2040)}` }, /^invalid body: url: must be at most 2048 characters, got 2062/],
    ["a user and password", { url: "https://user:pw@93.184.215.14/in" }, /^invalid body: url: must not carry a user name or password/],
    ["a user name", { url: "https://user@93.184.215.14/in" }, /^invalid body: url: must not carry a user name or password/],
    ["no url", {}, /^invalid body: url: is required/],
    ["an unknown type", { url: "https://93.184.215.14/in", types: ["pet.sold"] }, /^invalid body: types\.0: must be one of pet\.created, pet\.updated, pet\.deleted, order\.created, order\.updated, webhook\.disabled, got "pet\.sold"/],
    ["types as a string", { url: "https://93.184.215.14/in", types: "pet.created" }, /^invalid body: types: must be an array of event types/],
    ["a secret of its own", { url: "https://93.184.215.14/in", secret: "whsec_x" }, /^invalid body: unknown field "secret"/],
  ])("refuses %s with 400 invalid_body naming the field", async (_label, body, message) => {
    expect(await expectError(await add(body), 400, "invalid_body")).toMatch(message);
  });

  it("is for admin keys only: 403 for another key, 401 without one", async () => {
    const { key } = await createKey(server, { plan: "business" });
    await expectError(await add({ url: "https://93.184.215.14/in" }, key), 403, "forbidden");
    await expectError(await server.api("/webhooks", { key }), 403, "forbidden");
    await expectError(await server.api("/webhooks/1", { key }), 403, "forbidden");
    await expectError(await add({ url: "https://93.184.215.14/in" }, null as unknown as string), 401, "unauthorized");
  });
});

describe("GET /v1/webhooks", () => {
  it("pages by id with a Link to the next page, as listPets does", async () => {
    for (let i = 0; i < 3; i++) await added({ description: `page ${i}` });
    const ids: number[] = [];
    let next: string | null = "/webhooks?limit=2";
    while (next) {
      const response: Response = await server.api(next);
      expect(response.status).toBe(200);
      const page = await json(response);
      expect(page.length).toBeLessThanOrEqual(2);
      ids.push(...page.map((endpoint: { id: number }) => endpoint.id));
      const link = response.headers.get("link");
      next = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1]! : null;
    }
    expect(ids.length).toBeGreaterThanOrEqual(3);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("refuses a cursor it did not issue", async () => {
    expect(await expectError(await server.api("/webhooks?cursor=abc"), 400, "invalid_parameter")).toMatch(/^cursor /);
  });
});

describe("GET, PATCH, DELETE /v1/webhooks/{id}", () => {
  it("changes url, types, description and enabled, keeping the rest", async () => {
    const created = await added({ types: ["pet.created"], description: "before" });
    const response = await patch(created.id, { url: "http://93.184.215.14/other", enabled: false, description: null });
    expect(response.status).toBe(200);
    const changed = await json(response);
    expect(changed).toMatchObject({ id: created.id, url: "http://93.184.215.14/other", types: ["pet.created"], description: null, enabled: false });
    expect(await json(await server.api(`/webhooks/${created.id}`))).toEqual(changed);
    expect(await json(await patch(created.id, { types: ["order.updated", "order.updated"], enabled: true }))).toMatchObject({ types: ["order.updated"], enabled: true });
  });

  it("refuses an empty patch, a bad url and an unknown type, naming the field", async () => {
    const { id } = await added();
    expect(await expectError(await patch(id, {}), 400, "invalid_body")).toMatch(/nothing to update/);
    expect(await expectError(await patch(id, { url: "javascript:alert(1)" }), 400, "invalid_body")).toMatch(/^invalid body: url: /);
    expect(await expectError(await patch(id, { types: ["nope"] }), 400, "invalid_body")).toMatch(/^invalid body: types\.0: must be one of /);
    expect(await expectError(await patch(id, { enabled: "yes" }), 400, "invalid_body")).toMatch(/^invalid body: enabled: /);
  });

  it("removes an endpoint: 204, then 404 everywhere", async () => {
    const { id } = await added();
    const removed = await server.api(`/webhooks/${id}`, { method: "DELETE" });
    expect(removed.status).toBe(204);
    await expectError(await server.api(`/webhooks/${id}`), 404, "not_found");
    await expectError(await server.api(`/webhooks/${id}`, { method: "DELETE" }), 404, "not_found");
    await expectError(await patch(id, { enabled: false }), 404, "not_found");
  });

  it("answers 404 for an id no endpoint has, and 400 for one that is not an id", async () => {
    await expectError(await server.api("/webhooks/999999"), 404, "not_found");
    await expectError(await server.api("/webhooks/abc"), 400, "invalid_parameter");
  });
});

describe("durability", () => {
  it("keeps endpoints, secrets and removals across a restart", async () => {
    const kept = await added({ types: ["pet.deleted"] });
    const gone = await added();
    await server.api(`/webhooks/${gone.id}`, { method: "DELETE" });
    await patch(kept.id, { description: "after" });
    const { dbPath } = server;
    await server.close();
    server = await startTestServer({ db: dbPath });
    expect(await json(await server.api(`/webhooks/${kept.id}`))).toMatchObject({ types: ["pet.deleted"], description: "after" });
    await expectError(await server.api(`/webhooks/${gone.id}`), 404, "not_found");
    const next = await added();
    expect(next.id).toBeGreaterThan(gone.id);
  });
});

describe("server-side request forgery", () => {
  it.each([
    ["loopback IPv4", "http://127.0.0.1:8080/hook", /loopback/],
    ["loopback IPv6", "http://[::1]/hook", /loopback/],
    ["a private network", "https://10.0.0.5/hook", /private/],
    ["IPv4-mapped IPv6", "http://[::ffff:127.0.0.1]/hook", /loopback/],
    ["cloud metadata", "http://169.254.169.254/latest/meta-data", /metadata/],
    ["a name resolving to loopback", "http://localhost:3000/hook", /resolves to .*loopback/],
  ])("refuses %s at create and update (400 naming the reason)", async (_label, url, reason) => {
    const message = await expectError(await add({ url }), 400, "invalid_body");
    expect(message).toMatch(/^invalid body: url: /);
    expect(message).toMatch(reason);
    const { id } = await added();
    expect(await expectError(await patch(id, { url }), 400, "invalid_body")).toMatch(reason);
  });

  it("lets loopback through with --webhooks-allow-private, never cloud metadata", async () => {
    const local = await startTestServer({ webhooks: { allowPrivate: true } });
    try {
      expect((await local.api("/webhooks", { json: { url: "http://127.0.0.1:8080/hook" } })).status).toBe(201);
      await expectError(await local.api("/webhooks", { json: { url: "http://169.254.169.254/" } }), 400, "invalid_body");
      expect(local.stderr()).toMatch(/--webhooks-allow-private/);
    } finally {
      await local.close();
    }
  });
});
