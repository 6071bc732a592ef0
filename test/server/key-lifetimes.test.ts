// Keys that end: an expiry set at creation, and a rotation whose old secret works for a grace
// period. Over both engines; each case restarts on the same db to show the change is durable.
import { afterEach, describe, expect, it } from "vitest";
import { expectError, json } from "../helpers/assertions.js";
import { createKey, startTestServer, testClock, type TestClock, type TestServer } from "../helpers/test-server.js";

const HOUR = 3600_000;
const running: TestServer[] = [];

async function serverAt(clock: TestClock, db?: string): Promise<TestServer> {
  const server = await startTestServer({ now: clock.now, ...(db === undefined ? {} : { db }) });
  running.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function restart(server: TestServer, clock: TestClock): Promise<TestServer> {
  await server.close();
  running.splice(running.indexOf(server), 1);
  return serverAt(clock, server.dbPath);
}

describe("keys that expire", () => {
  it("works until expiresAt, then gets 401 saying when it expired; list and current show it", async () => {
    const clock = testClock();
    let server = await serverAt(clock);
    const expiresAt = new Date(clock.now() + HOUR).toISOString();
    const created = await json(await server.api("/keys", { json: { plan: "free", expiresAt } }));
    expect(created.expiresAt).toBe(expiresAt);
    const current = await json(await server.api("/keys/current", { key: created.key }));
    expect(current.key.expiresAt).toBe(expiresAt);
    const listed = (await json(await server.api("/keys"))) as { id: string; expiresAt: string | null }[];
    expect(listed.find((key) => key.id === created.id)?.expiresAt).toBe(expiresAt);

    server = await restart(server, clock);
    clock.advance(HOUR - 1000);
    expect((await server.api("/pets", { key: created.key })).status).toBe(200);
    clock.advance(1000);
    const message = await expectError(await server.api("/pets", { key: created.key }), 401, "unauthorized");
    expect(message).toBe(`the API key expired at ${expiresAt}`);
  });

  it.each([
    [{ plan: "free", expiresAt: "2020-01-01T00:00:00Z" }, /expiresAt: must be in the future/],
    [{ plan: "free", expiresAt: "tomorrow" }, /expiresAt/],
  ])("refuses %j with 400 invalid_body", async (body, message) => {
    const server = await serverAt(testClock());
    expect(await expectError(await server.api("/keys", { json: body }), 400, "invalid_body")).toMatch(message);
  });

  it("keeps keys without expiry working forever", async () => {
    const clock = testClock();
    const server = await serverAt(clock);
    const { key } = await createKey(server, { plan: "free" });
    clock.advance(10 * 365 * 24 * HOUR);
    expect((await server.api("/pets", { key })).status).toBe(200);
  });
});

describe("POST /v1/keys/{id}/rotate", () => {
  it("issues a new secret for the same id, plan and counters; the old one works through the grace, then 401", async () => {
    const clock = testClock();
    let server = await serverAt(clock);
    const old = await createKey(server, { plan: "free", name: "rotated" });
    await server.api("/pets", { key: old.key });
    const response = await server.api(`/keys/${old.id}/rotate`, { json: { graceSeconds: 600 } });
    expect(response.status).toBe(200);
    const rotated = await json(response);
    expect(rotated).toMatchObject({ id: old.id, plan: "free", name: "rotated", previousSecretValidUntil: new Date(clock.now() + 600_000).toISOString() });
    expect(rotated.key).not.toBe(old.key);
    expect(rotated.key.startsWith(rotated.prefix)).toBe(true);
    // The same counters: the minute window keyed by id has seen the request made with the old secret.
    const usage = await json(await server.api("/keys/current", { key: rotated.key }));
    expect(usage.usage.minute.remaining).toBe(usage.usage.minute.limit - 2);
    expect(usage.key.rotatedAt).toBe(new Date(clock.now()).toISOString());

    server = await restart(server, clock);
    clock.advance(599_000);
    expect((await server.api("/pets", { key: old.key })).status).toBe(200);
    expect((await server.api("/pets", { key: rotated.key })).status).toBe(200);
    clock.advance(1000);
    const message = await expectError(await server.api("/pets", { key: old.key }), 401, "unauthorized");
    expect(message).toMatch(/^the API key was rotated at .*; the old secret stopped working at .*: use the new one$/);
    expect((await server.api("/pets", { key: rotated.key })).status).toBe(200);
  });

  it("logs an audit line naming the rotated key, never a secret", async () => {
    const server = await startTestServer({ logFormat: "json" });
    running.push(server);
    const old = await createKey(server, { plan: "free" });
    const rotated = await json(await server.api(`/keys/${old.id}/rotate`, { json: { graceSeconds: 60 } }));
    const audits = server.stderr().trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => "audit" in line);
    expect(audits.at(-1)).toMatchObject({ audit: "key.rotated", keyId: old.id, plan: "free" });
    expect(server.stderr()).not.toContain(rotated.key);
  });

  it("with graceSeconds 0 refuses the old secret at once; a second rotation forgets the first secret", async () => {
    const clock = testClock();
    const server = await serverAt(clock);
    const old = await createKey(server, { plan: "pro" });
    const first = await json(await server.api(`/keys/${old.id}/rotate`, { json: { graceSeconds: 0 } }));
    await expectError(await server.api("/pets", { key: old.key }), 401, "unauthorized");
    const second = await json(await server.api(`/keys/${old.id}/rotate`, { json: {} }));
    expect((await server.api("/pets", { key: first.key })).status).toBe(200);
    expect((await server.api("/pets", { key: second.key })).status).toBe(200);
    expect(await expectError(await server.api("/pets", { key: old.key }), 401, "unauthorized")).toBe("the API key is not valid");
  });

  it("answers 404 for an unknown or revoked key, 400 for a bad grace, 403 for a non-admin key", async () => {
    const server = await serverAt(testClock());
    await expectError(await server.api("/keys/key_nope/rotate", { json: {} }), 404, "not_found");
    const revoked = await createKey(server, { plan: "free" });
    await server.api(`/keys/${revoked.id}`, { method: "DELETE" });
    expect(await expectError(await server.api(`/keys/${revoked.id}/rotate`, { json: {} }), 404, "not_found")).toMatch(/revoked/);
    await expectError(await server.api(`/keys/${revoked.id}/rotate`, { json: { graceSeconds: -1 } }), 400, "invalid_body");
    const plain = await createKey(server, { plan: "free" });
    await expectError(await server.api(`/keys/${plain.id}/rotate`, { key: plain.key, json: {} }), 403, "forbidden");
  });
});
