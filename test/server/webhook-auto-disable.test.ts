// An endpoint whose every delivery failed for the whole retry window is disabled, over both
// engines, on a test clock: webhook.disabled is an event (the admin's stream, the endpoints that
// ask for it, signed as any delivery, judged by standardwebhooks), its pending deliveries end, an
// endpoint with a success or a change in the window is spared, and enabling it again sends
// nothing old.
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { expectError, json } from "../helpers/assertions.js";
import { componentValidator } from "../helpers/conformance.js";
import { openSse, type SseStream } from "../helpers/sse-client.js";
import { createKey, startTestServer, testClock, type TestClock, type TestServer } from "../helpers/test-server.js";
import { startReceiver, type Received, type WebhookReceiver } from "../helpers/webhook-receiver.js";

/** The retry window of these servers (serve --webhook-retry-for 1h). */
const WINDOW_MS = 3_600_000;
/** Past the window's end, with room for PostgreSQL's event times (its own clock, a few seconds behind the test clock's jumps). */
const PAST_END_MS = 60_000;
/** Failing, and asking for no retry within a day: the next attempt is then the window's last one. */
const FAILING = { status: 503, headers: { "retry-after": "86400" }, body: "down" } as const;

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function setUp(): Promise<{ server: TestServer; clock: TestClock }> {
  const clock = testClock(Date.now());
  const webhooks = { allowPrivate: true, pollMs: 20, timeoutMs: 2_000, random: () => 0.5, retryForMs: WINDOW_MS };
  const server = await startTestServer({ now: clock.now, webhooks, eventStreams: { keepAliveMs: 60_000 } });
  open.push(server);
  return { server, clock };
}

async function receiver(): Promise<WebhookReceiver> {
  const started = await startReceiver();
  open.push(started);
  return started;
}

async function stream(server: TestServer, key: string, query = ""): Promise<SseStream> {
  const opened = await openSse(`${server.baseUrl}/events${query}`, key);
  open.push({ close: async () => opened.close() });
  for (let i = 0; i < 100 && opened.retry() === undefined; i++) await sleep(10);
  return opened;
}

async function addEndpoint(server: TestServer, url: string, types?: string[]): Promise<{ id: number; secret: string }> {
  const response = await server.api("/webhooks", { json: { url, ...(types ? { types } : {}) } });
  expect(response.status).toBe(201);
  return json(response);
}

interface Delivery {
  id: number;
  type: string;
  status: string;
  attempts: number;
  lastError: string | null;
}

const deliveries = async (server: TestServer, id: number): Promise<Delivery[]> => json(await server.api(`/webhooks/${id}/deliveries`));
const endpoint = async (server: TestServer, id: number): Promise<{ enabled: boolean }> => json(await server.api(`/webhooks/${id}`));
const createPet = async (server: TestServer, name: string) => json(await server.api("/pets", { json: { name, categoryId: 1 } }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` holds (the worker records attempts in the background); fails after 5 s. */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (const started = Date.now(); !(await check()); await sleep(25)) {
    if (Date.now() - started > 5_000) throw new Error(`not within 5 s: ${what}`);
  }
}

/** Until every delivery of the endpoint has been attempted `attempts` times (the attempt recorded, not only sent). */
const attempted = (server: TestServer, id: number, attempts: number) =>
  until(`deliveries of ${id} attempted ${attempts} times`, async () => (await deliveries(server, id)).every((delivery) => delivery.attempts >= attempts));

function verified(secret: string, request: Received): { id: number; type: string; data: Record<string, unknown> } {
  const { headers } = request;
  const signed = { "webhook-id": String(headers["webhook-id"]), "webhook-timestamp": String(headers["webhook-timestamp"]), "webhook-signature": String(headers["webhook-signature"]) };
  return new Webhook(secret).verify(request.body, signed) as never;
}

describe("an endpoint whose every delivery failed for the whole retry window", () => {
  it("is disabled; webhook.disabled reaches admin streams and the endpoints asking for it; its pending deliveries end; enabling it again sends nothing old", async () => {
    const { server, clock } = await setUp();
    const { key } = await createKey(server, { plan: "free" });
    const [adminStream, keyStream] = [await stream(server, server.adminKey), await stream(server, key)];
    const [doomed, watcher] = [await receiver(), await receiver()];
    doomed.answer(FAILING);
    const failing = await addEndpoint(server, doomed.url);
    const watching = await addEndpoint(server, watcher.url, ["webhook.disabled"]);

    await createPet(server, "first");
    await doomed.waitFor(1);
    await attempted(server, failing.id, 1);
    // Half-way through the window: a delivery that is still pending when the endpoint is disabled.
    clock.advance(WINDOW_MS / 2);
    expect((await server.api(`/webhooks/${failing.id}/test`, { method: "POST" })).status).toBe(200);
    await doomed.waitFor(2);
    await attempted(server, failing.id, 1);
    clock.advance(WINDOW_MS / 2 + PAST_END_MS);
    await until("the endpoint disabled", async () => !(await endpoint(server, failing.id)).enabled);

    const [test, first] = await deliveries(server, failing.id);
    expect(first).toMatchObject({ type: "pet.created", status: "failed", attempts: 2, lastError: "answered 503" });
    expect(test).toMatchObject({ type: "webhook.test", status: "failed", attempts: 1, lastError: "not sent: the endpoint was disabled" });
    const [told] = await watcher.waitFor(1);
    const payload = verified(watching.secret, told!);
    const origin = new URL(doomed.url).origin;
    expect(payload).toMatchObject({ type: "webhook.disabled", data: { id: failing.id, origin, description: null, deliveryId: first!.id, lastError: "answered 503" } });
    // What the document's webhooks entry for webhook.disabled says it is.
    expect(componentValidator("WebhookDisabledEvent")(payload), JSON.stringify(payload)).toBe(true);
    expect(server.stderr()).toContain(`webhook endpoint ${failing.id} (${origin}) disabled: no delivery to it succeeded for 1 h`);

    // The event itself: on the admin's stream with the id the delivery carried; not on a key's, whatever its scopes.
    await createPet(server, "after");
    const events = await adminStream.events(3);
    expect(events.map((event) => event.type)).toEqual(["pet.created", "webhook.disabled", "pet.created"]);
    expect(events[1]).toMatchObject({ id: payload.id, data: { id: failing.id, origin, deliveryId: first!.id } });
    expect((await keyStream.events(2)).map((event) => [event.type, event.data.name])).toEqual([["pet.created", "first"], ["pet.created", "after"]]);
    // Never sent to the endpoint it is about, which asked for every type.
    expect(doomed.received.map((request) => JSON.parse(request.body).type)).toEqual(["pet.created", "webhook.test", "pet.created"]);

    // Enabled again: nothing old is sent, only what happens from then on.
    doomed.answer({ status: 204 });
    const enabled = await server.api(`/webhooks/${failing.id}`, { method: "PATCH", json: { enabled: true } });
    expect(await json(enabled)).toMatchObject({ enabled: true });
    for (let step = 0; step < 6; step++) {
      clock.advance(WINDOW_MS);
      await sleep(50);
    }
    expect(doomed.received).toHaveLength(3);
    await createPet(server, "again");
    const [, , , latest] = await doomed.waitFor(4);
    expect(verified(failing.secret, latest!)).toMatchObject({ type: "pet.created", data: { name: "again" } });
    await sleep(200);
    expect(doomed.received).toHaveLength(4);
    expect(watcher.received).toHaveLength(1);
  });

  it("is spared when one of its deliveries succeeded within the window", async () => {
    const { server, clock } = await setUp();
    const hook = await receiver();
    hook.answer((request) => (JSON.parse(request.body).data.name === "bad" ? FAILING : { status: 200 }));
    const { id } = await addEndpoint(server, hook.url);
    await createPet(server, "bad");
    await attempted(server, id, 1);
    clock.advance(WINDOW_MS / 2);
    await createPet(server, "good");
    await until("the good one delivered", async () => (await deliveries(server, id)).some((delivery) => delivery.status === "succeeded"));
    clock.advance(WINDOW_MS / 2 + PAST_END_MS);
    await until("the bad one failed", async () => (await deliveries(server, id)).some((delivery) => delivery.status === "failed"));
    await sleep(200);
    expect(await endpoint(server, id)).toMatchObject({ enabled: true });
    expect(server.stderr()).not.toContain("disabled");
  });

  it("is spared when it was changed within the window (a new URL, a new secret, enabled again): it gets a whole window", async () => {
    const { server, clock } = await setUp();
    const hook = await receiver();
    hook.answer(FAILING);
    const { id } = await addEndpoint(server, hook.url);
    await createPet(server, "bad");
    await attempted(server, id, 1);
    clock.advance(WINDOW_MS / 2);
    expect((await server.api(`/webhooks/${id}/rotate-secret`, { json: {} })).status).toBe(200);
    clock.advance(WINDOW_MS / 2 + PAST_END_MS);
    await until("the delivery failed", async () => (await deliveries(server, id))[0]!.status === "failed");
    await sleep(200);
    expect(await endpoint(server, id)).toMatchObject({ enabled: true });
  });
});

describe("webhook.disabled on the event stream", () => {
  it("is for admin keys: a key asking for it is refused whatever its scopes (400 naming types); an admin may ask for it alone", async () => {
    const { server } = await setUp();
    const { key } = await createKey(server, { plan: "free" });
    const refused = await server.api("/events?types=pet.created,webhook.disabled", { key });
    expect(await expectError(refused, 400, "invalid_parameter")).toBe("types names webhook.disabled, which only admin keys receive");
    const admin = await stream(server, server.adminKey, "?types=webhook.disabled");
    expect(admin.response.status).toBe(200);
  });
});
