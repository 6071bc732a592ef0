// GET /v1/keys/current: any valid key reads its own record and usage; every answer is checked
// against the OpenAPI document by callApi. Runs over lowdb + memory and PostgreSQL + Redis.
import { afterEach, describe, expect, it } from "vitest";
import pkg from "../../package.json" with { type: "json" };
import { expectError, json } from "../helpers/assertions.js";
import { createKey, startTestServer, testClock, type TestServer } from "../helpers/test-server.js";

const NOON = Date.UTC(2026, 10, 22, 12, 0, 0);
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serverAt(clock = testClock(NOON + 30_000)) {
  const server = await startTestServer({ now: clock.now });
  servers.push(server);
  return server;
}

describe("GET /v1/keys/current", () => {
  it("answers a plain key with its KeyView, both windows and the server's version", async () => {
    const server = await serverAt();
    const created = await createKey(server, { plan: "free", name: "me" });
    const response = await server.api("/keys/current", { key: created.key });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.key).toMatchObject({ id: created.id, plan: "free", name: "me", admin: false, limits: { perMinute: 60, perDay: 1000 } });
    expect(body.key).not.toHaveProperty("hash");
    expect(JSON.stringify(body)).not.toContain(created.key);
    expect(body.usage).toEqual({
      minute: { limit: 60, remaining: 59, resetAt: "2026-11-22T12:01:00.000Z" },
      day: { limit: 1000, remaining: 999, resetAt: "2026-11-23T00:00:00.000Z" },
      bannedUntil: null,
    });
    expect(body.server).toEqual({ version: pkg.version });
  });

  it("counts itself once and nothing more: the usage includes this request and agrees with the headers", async () => {
    const server = await serverAt();
    const { key } = await createKey(server, { plan: "free" });
    for (let i = 0; i < 3; i++) await server.api("/pets", { key });
    const response = await server.api("/keys/current", { key });
    const body = await json(response);
    expect(body.usage.minute.remaining).toBe(56);
    expect(Number(response.headers.get("x-ratelimit-remaining"))).toBe(56);
    expect((await json(await server.api("/keys/current", { key }))).usage.minute.remaining).toBe(55);
  });

  it("reads a new window as full once the minute has turned", async () => {
    const clock = testClock(NOON + 30_000);
    const server = await serverAt(clock);
    const { key } = await createKey(server, { plan: "free" });
    for (let i = 0; i < 5; i++) await server.api("/pets", { key });
    clock.advance(60_000);
    const body = await json(await server.api("/keys/current", { key }));
    expect(body.usage.minute).toEqual({ limit: 60, remaining: 59, resetAt: "2026-11-22T12:02:00.000Z" });
    expect(body.usage.day.remaining).toBe(994);
  });

  it("answers the admin key from the environment too", async () => {
    const server = await serverAt();
    const body = await json(await server.api("/keys/current"));
    expect(body.key.admin).toBe(true);
  });

  it("refuses a missing or revoked key with 401", async () => {
    const server = await serverAt();
    await expectError(await server.api("/keys/current", { key: null }), 401, "unauthorized");
    const { id, key } = await createKey(server, { plan: "free" });
    await server.api(`/keys/${id}`, { method: "DELETE" });
    await expectError(await server.api("/keys/current", { key }), 401, "unauthorized");
  });

  it("is still a path apart from /keys/{id}: DELETE /keys/current is 405", async () => {
    const server = await serverAt();
    const response = await server.api("/keys/current", { method: "DELETE" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toMatch(/GET/);
  });
});
