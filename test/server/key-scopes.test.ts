// Keys that can do only what they need: POST /v1/keys with scopes, and what the key then holds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCOPES } from "../../src/contract/scopes.js";
import { expectError, json } from "../helpers/assertions.js";
import { createKey, startTestServer, type TestServer } from "../helpers/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const listed = async (id: string) => ((await json(await server.api("/keys"))) as { id: string; scopes: string[] }[]).find((key) => key.id === id);

describe("POST /v1/keys with scopes", () => {
  it("gives a key created without scopes all five, as every key had before scopes", async () => {
    const created = await json(await server.api("/keys", { json: { plan: "free" } }));
    expect(created.scopes).toEqual(SCOPES);
    expect((await listed(created.id))?.scopes).toEqual(SCOPES);
  });

  it("keeps exactly the scopes asked, each once, in their canonical order; listKeys and keys/current state them", async () => {
    const response = await server.api("/keys", { json: { plan: "pro", scopes: ["events:read", "pets:read"] } });
    expect(response.status).toBe(201);
    const created = await json(response);
    expect(created.scopes).toEqual(["pets:read", "events:read"]);
    expect((await listed(created.id))?.scopes).toEqual(["pets:read", "events:read"]);
    const current = await json(await server.api("/keys/current", { key: created.key }));
    expect(current.key.scopes).toEqual(["pets:read", "events:read"]);
  });

  it("keeps a key's scopes through a rotation; the answer states them", async () => {
    const { id } = await createKey(server, { plan: "free", scopes: ["orders:read"] });
    const rotated = await json(await server.api(`/keys/${id}/rotate`, { json: { graceSeconds: 0 } }));
    expect(rotated.scopes).toEqual(["orders:read"]);
    expect((await listed(id))?.scopes).toEqual(["orders:read"]);
    expect((await json(await server.api("/keys/current", { key: rotated.key }))).key.scopes).toEqual(["orders:read"]);
  });

  it("states every scope for the admin key", async () => {
    expect((await json(await server.api("/keys/current"))).key).toMatchObject({ admin: true, scopes: SCOPES });
  });

  it.each([
    [{ plan: "free", scopes: [] }, /scopes: must name at least one scope/],
    [{ plan: "free", scopes: ["pets:read", "keys:write"] }, /scopes\.1: must be one of pets:read, pets:write, orders:read, orders:write, events:read/],
    [{ plan: "free", scopes: ["pets:read", "pets:read"] }, /scopes: must not name a scope twice/],
    [{ plan: "free", scopes: "pets:read" }, /scopes: must be an array of scopes/],
    [{ plan: "free", scopes: null }, /scopes: must be an array of scopes/],
  ])("refuses %j with 400 invalid_body naming the field, creating nothing", async (body, message) => {
    const before = (await json(await server.api("/keys"))).length;
    expect(await expectError(await server.api("/keys", { json: body }), 400, "invalid_body")).toMatch(message);
    expect((await json(await server.api("/keys"))).length).toBe(before);
  });
});
