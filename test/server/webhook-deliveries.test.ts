// Deliveries over both engines: what a receiver gets for each change (judged by the
// standardwebhooks package), which endpoints get what, retries on a test clock, Retry-After,
// redirects and timeouts, a receiver that never answers next to one that does, and durability.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import pkg from "../../package.json" with { type: "json" };
import { json } from "../helpers/assertions.js";
import { startTestServer, testClock, type TestClock, type TestServer } from "../helpers/test-server.js";
import { startReceiver, type Received, type WebhookReceiver } from "../helpers/webhook-receiver.js";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function setUp(options: { timeoutMs?: number; maxInFlight?: number } = {}): Promise<{ server: TestServer; clock: TestClock }> {
  const clock = testClock(Date.now());
  const webhooks = { allowPrivate: true, pollMs: 20, timeoutMs: options.timeoutMs ?? 2_000, random: () => 0.5, maxInFlight: options.maxInFlight };
  const server = await startTestServer({ now: clock.now, webhooks });
  open.push(server);
  return { server, clock };
}

async function receiver(): Promise<WebhookReceiver> {
  const started = await startReceiver();
  open.push(started);
  return started;
}

async function addEndpoint(server: TestServer, url: string, types?: string[]): Promise<{ id: number; secret: string }> {
  const response = await server.api("/webhooks", { json: { url, ...(types ? { types } : {}) } });
  expect(response.status).toBe(201);
  return json(response);
}

const createPet = async (server: TestServer, name = "Rex") => json(await server.api("/pets", { json: { name, categoryId: 1 } }));

function verified(secret: string, request: Received): { id: number; type: string; timestamp: string; data: Record<string, unknown> } {
  const headers = {
    "webhook-id": String(request.headers["webhook-id"]),
    "webhook-timestamp": String(request.headers["webhook-timestamp"]),
    "webhook-signature": String(request.headers["webhook-signature"]),
  };
  return new Webhook(secret).verify(request.body, headers) as never;
}

/** Moves the server's clock in steps, letting the worker's polls (every 20 ms) see each one. */
async function advance(clock: TestClock, totalMs: number, stepMs: number): Promise<void> {
  for (let moved = 0; moved < totalMs; moved += stepMs) {
    clock.advance(stepMs);
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
}

describe("a delivery", () => {
  it("is a signed POST the standardwebhooks package accepts, carrying the event id, type, time and record", async () => {
    const { server } = await setUp();
    const hook = await receiver();
    const { secret } = await addEndpoint(server, hook.url);
    const pet = await createPet(server);
    const [request] = await hook.waitFor(1);
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.headers["user-agent"]).toBe(`petstore/${pkg.version}`);
    expect(request!.headers["webhook-id"]).toMatch(/^msg_\d+$/);
    expect(Math.abs(Number(request!.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
    const payload = verified(secret, request!);
    expect(payload).toMatchObject({ type: "pet.created", data: pet });
    expect(payload.id).toBeGreaterThan(0);
    expect(payload.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(() => new Webhook(Buffer.alloc(32, 1).toString("base64")).verify(request!.body, request!.headers as Record<string, string>)).toThrow();
  });

  it("goes to each enabled endpoint whose types match, none given meaning all", async () => {
    const { server } = await setUp();
    const [all, orders, off] = [await receiver(), await receiver(), await receiver()];
    await addEndpoint(server, all.url);
    await addEndpoint(server, orders.url, ["order.created"]);
    const disabled = await addEndpoint(server, off.url);
    await server.api(`/webhooks/${disabled.id}`, { method: "PATCH", json: { enabled: false } });
    const pet = await createPet(server);
    await server.api("/store/orders", { json: { petId: pet.id } });
    await all.waitFor(3); // pet.created, pet.updated (pending), order.created
    await orders.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(orders.received.map((request) => JSON.parse(request.body).type)).toEqual(["order.created"]);
    expect(all.received.map((request) => JSON.parse(request.body).type).sort()).toEqual(["order.created", "pet.created", "pet.updated"]);
    expect(off.received).toHaveLength(0);
  });
});

describe("retries", () => {
  it("a receiver failing for 10 minutes, then recovering, gets every event, each under one webhook-id", async () => {
    const { server, clock } = await setUp();
    const hook = await receiver();
    const { secret } = await addEndpoint(server, hook.url);
    let failing = true;
    hook.answer(() => (failing ? { status: 503, body: "down" } : { status: 204 }));
    for (let i = 0; i < 5; i++) await createPet(server, `pet ${i}`);
    await hook.waitFor(5);
    await advance(clock, 10 * 60_000, 15_000);
    failing = false;
    await advance(clock, 30 * 60_000, 60_000);
    const delivered = hook.received.filter((request) => request.body !== "" && hook.received.indexOf(request) >= 0);
    const byId = new Map<string, Received[]>();
    for (const request of delivered) byId.set(String(request.headers["webhook-id"]), [...(byId.get(String(request.headers["webhook-id"])) ?? []), request]);
    expect(byId.size).toBe(5);
    for (const attempts of byId.values()) {
      expect(attempts.length).toBeGreaterThan(2);
      expect(new Set(attempts.map((request) => request.body)).size).toBe(1);
      verified(secret, attempts.at(-1)!);
    }
    // Logged once when it started failing, once when it recovered; never the path or the secret.
    expect(server.stderr().match(/is failing/g)).toHaveLength(1);
    expect(server.stderr()).toMatch(/webhook endpoint \d+ \(http:\/\/127\.0\.0\.1:\d+\) is failing: answered 503/);
    expect(server.stderr().match(/recovered after \d+ s of failures/g)).toHaveLength(1);
    expect(server.stderr()).not.toContain("/hook");
    expect(server.stderr()).not.toContain(secret.slice(6));
    const names = [...byId.values()].map((attempts) => (JSON.parse(attempts[0]!.body).data as { name: string }).name).sort();
    expect(names).toEqual(["pet 0", "pet 1", "pet 2", "pet 3", "pet 4"]);
  });

  it("waits as long as a receiver's Retry-After says", async () => {
    const { server, clock } = await setUp();
    const hook = await receiver();
    await addEndpoint(server, hook.url);
    hook.answer({ status: 429, headers: { "retry-after": "3600" } });
    await createPet(server);
    await hook.waitFor(1);
    // Recorded before the clock jumps past the claim's lease.
    await new Promise((resolve) => setTimeout(resolve, 200));
    hook.answer({ status: 200 });
    await advance(clock, 50 * 60_000, 5 * 60_000);
    expect(hook.received).toHaveLength(1);
    await advance(clock, 15 * 60_000, 5 * 60_000);
    await hook.waitFor(2);
  });

  it("does not follow a redirect (a private address or not): it is a failure, retried", async () => {
    const { server } = await setUp();
    const [hook, elsewhere] = [await receiver(), await receiver()];
    await addEndpoint(server, hook.url);
    hook.answer({ status: 307, headers: { location: elsewhere.url } });
    await createPet(server);
    await hook.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(elsewhere.received).toHaveLength(0);
  });

  for (const [label, maxInFlight, held] of [["by default", undefined, 4], ["with --webhook-max-in-flight 16", 16, 16]] as const) {
    it(`a receiver that never answers holds ${held} attempts at most ${label}, and delays no other endpoint`, async () => {
      const { server } = await setUp({ timeoutMs: 10_000, maxInFlight });
      const [dead, alive] = [await receiver(), await receiver()];
      dead.answer("hang");
      await addEndpoint(server, dead.url);
      await addEndpoint(server, alive.url);
      for (let i = 0; i < 30; i++) await createPet(server, `pet ${i}`);
      const started = Date.now();
      await alive.waitFor(30, 3_000);
      expect(Date.now() - started).toBeLessThan(3_000);
      // Bounded in flight: the dead receiver holds that many requests at once, and no more while they hang.
      await dead.waitFor(held, 3_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(dead.received).toHaveLength(held);
    });
  }
});

describe("an attempt", () => {
  it("is given up after the timeout and tried again later", async () => {
    const { server, clock } = await setUp({ timeoutMs: 300 });
    const hook = await receiver();
    hook.answer("hang");
    await addEndpoint(server, hook.url);
    await createPet(server);
    await hook.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(hook.received).toHaveLength(1);
    hook.answer({ status: 200 });
    await advance(clock, 60_000, 10_000);
    await hook.waitFor(2);
    expect(hook.received[1]!.headers["webhook-id"]).toBe(hook.received[0]!.headers["webhook-id"]);
  });
});

describe("an attempt's timeout", () => {
  it("covers the whole answer: a receiver that answers its head and then trickles its body is cut off, and the attempt says so", async () => {
    const { server } = await setUp({ timeoutMs: 400 });
    let stopTrickle = () => {};
    const trickler = createServer((request, response) => {
      request.resume();
      response.writeHead(200, { "content-type": "text/plain" });
      // A byte every 100 ms: never idle long enough for a per-read timeout, never done either.
      const timer = setInterval(() => response.write("."), 100);
      response.once("close", () => clearInterval(timer));
      stopTrickle = () => {
        clearInterval(timer);
        response.destroy();
      };
    });
    await new Promise<void>((resolve) => trickler.listen(0, "127.0.0.1", resolve));
    open.push({ close: () => new Promise<void>((resolve) => (stopTrickle(), trickler.closeAllConnections(), trickler.close(() => resolve()))) });
    const { id } = await addEndpoint(server, `http://127.0.0.1:${(trickler.address() as AddressInfo).port}/hook`);
    await createPet(server);
    let delivery: { attempts: number; lastError: string | null; lastDurationMs: number } | undefined;
    for (const started = Date.now(); !delivery?.attempts && Date.now() - started < 5_000; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      [delivery] = await json(await server.api(`/webhooks/${id}/deliveries`));
    }
    expect(delivery).toMatchObject({ attempts: 1, status: "pending", lastStatusCode: null, lastError: "no answer within 0.4 s" });
    expect(delivery!.lastDurationMs).toBeGreaterThanOrEqual(400);
    expect(delivery!.lastDurationMs).toBeLessThan(2_000);
  });
});

describe("deliveries you can see, retry, test and rotation", () => {
  it("lists an endpoint's deliveries newest first, by status, with the last answer; retry sends one again under its webhook-id", async () => {
    const { server } = await setUp();
    const hook = await receiver();
    const { id } = await addEndpoint(server, hook.url);
    hook.answer((request) => (JSON.parse(request.body).data.name === "bad" ? { status: 500, body: "x".repeat(3000) } : { status: 200, body: "thanks" }));
    await createPet(server, "good");
    await createPet(server, "bad");
    await hook.waitFor(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const all = await json(await server.api(`/webhooks/${id}/deliveries`));
    expect(all.map((delivery: { type: string }) => delivery.type)).toEqual(["pet.created", "pet.created"]);
    expect(all[0].id).toBeGreaterThan(all[1].id);
    const [failed] = await json(await server.api(`/webhooks/${id}/deliveries?status=pending`));
    expect(failed).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500, lastError: "answered 500", webhookId: id });
    expect(failed.lastResponse).toBe("x".repeat(1024));
    expect(failed.nextAttemptAt).not.toBeNull();
    const [succeeded] = await json(await server.api(`/webhooks/${id}/deliveries?status=succeeded`));
    expect(succeeded).toMatchObject({ status: "succeeded", lastStatusCode: 200, lastResponse: "thanks", nextAttemptAt: null, lastError: null });
    const page = await server.api(`/webhooks/${id}/deliveries?limit=1`);
    expect(page.headers.get("link")).toMatch(/rel="next"$/);
    const retried = await server.api(`/webhooks/${id}/deliveries/${succeeded.id}/retry`, { method: "POST" });
    expect(retried.status).toBe(200);
    const again = await hook.waitFor(3);
    expect(again[2]!.headers["webhook-id"]).toBe(`msg_${succeeded.id}`);
    expect((await server.api(`/webhooks/${id}/deliveries/999999/retry`, { method: "POST" })).status).toBe(404);
    expect((await server.api(`/webhooks/999999/deliveries`)).status).toBe(404);
    expect((await server.api(`/webhooks/${id}/deliveries?status=lost`)).status).toBe(400);
  });

  it("keeps an answer holding a NUL byte, which PostgreSQL's text cannot store, as U+FFFD: the delivery is recorded, not sent again", async () => {
    const { server } = await setUp();
    const hook = await receiver();
    const { id } = await addEndpoint(server, hook.url);
    hook.answer({ status: 200, body: "ok\u0000binary" });
    await createPet(server);
    await hook.waitFor(1);
    for (let tries = 0; tries < 100; tries++) {
      const [delivery] = await json(await server.api(`/webhooks/${id}/deliveries`));
      if (delivery.status === "succeeded") {
        expect(delivery.lastResponse).toBe("ok\ufffdbinary");
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the delivery was never recorded as succeeded");
  });

  it("sends webhook.test to that endpoint only", async () => {
    const { server } = await setUp();
    const [one, other] = [await receiver(), await receiver()];
    const { id, secret } = await addEndpoint(server, one.url, ["order.created"]);
    await addEndpoint(server, other.url);
    const response = await server.api(`/webhooks/${id}/test`, { method: "POST" });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({ type: "webhook.test", eventId: null, status: "pending" });
    const [request] = await one.waitFor(1);
    expect(verified(secret, request!)).toMatchObject({ id: null, type: "webhook.test", data: { webhookId: id } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(other.received).toHaveLength(0);
    expect((await server.api(`/webhooks/999999/test`, { method: "POST" })).status).toBe(404);
  });

  it("rotation: both secrets sign during the grace, then only the new one", async () => {
    const { server, clock } = await setUp();
    const hook = await receiver();
    const { id, secret: old } = await addEndpoint(server, hook.url);
    const response = await server.api(`/webhooks/${id}/rotate-secret`, { json: { graceSeconds: 3600 } });
    expect(response.status).toBe(200);
    const { secret } = await json(response);
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(old);
    await createPet(server);
    const [during] = await hook.waitFor(1);
    expect(String(during!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    verified(old, during!);
    verified(secret, during!);
    clock.advance(3601_000);
    await createPet(server);
    const [, after] = await hook.waitFor(2);
    expect(String(after!.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    verified(secret, after!);
    expect(() => verified(old, after!)).toThrow();
    expect((await server.api(`/webhooks/${id}/rotate-secret`, { json: { graceSeconds: -1 } })).status).toBe(400);
  });
});
