// The delivery queue of `events --forward-to` over the real wire (undici) to a scripted receiver
// on port 0: order, signatures (judged by the standardwebhooks package), which answers are
// retried and how long it waits (a recording sleep), the bound on what it holds, and stopping.
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import type { StoreEvent } from "../../src/contract/events.js";
import { createForwardQueue, outcomeOf, type DeliveryReport, type ForwardQueue } from "../../src/cli/internal/forward-queue.js";
import { undiciTransport } from "../../src/cli/internal/undici-transport.js";
import { newWebhookSecret } from "../../src/support/standard-webhooks.js";
import { startFakeApi, unusedBaseUrl, type FakeApi, type FakeResponse } from "./helpers/fake-api.js";

const SECRET = newWebhookSecret(randomBytes);
let receiver: FakeApi | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

const eventOf = (id: number): StoreEvent => ({ type: "pet.created", id, at: new Date(Date.UTC(2026, 0, 1, 0, 0, id)).toISOString(), data: { id, name: `Pet ${id}` } });
/** The body as the stream carries it: the queue must send these characters, not its own serialisation. */
const bodyOf = (event: StoreEvent) => JSON.stringify(event, null, 1);

interface Run {
  queue: ForwardQueue;
  reports: DeliveryReport[];
  sleeps: number[];
  controller: AbortController;
  running: Promise<void>;
  close(): Promise<void>;
}

/** A queue delivering to `url` over undici; its sleep records the wait and returns at once (unless `hold`). */
function start(url: string, options: { capacity?: number; hold?: boolean } = {}): Run {
  const transport = undiciTransport({ baseUrl: url, timeoutMs: 2_000 });
  const reports: DeliveryReport[] = [];
  const sleeps: number[] = [];
  const controller = new AbortController();
  const sleep = (ms: number, signal?: AbortSignal) => {
    sleeps.push(ms);
    if (!options.hold) return Promise.resolve();
    return new Promise<void>((resolve) => signal?.addEventListener("abort", () => resolve()));
  };
  const deps = { transport, now: () => Date.now(), sleep, random: () => 0.5, onDelivery: (report: DeliveryReport) => reports.push(report), signal: controller.signal };
  const queue = createForwardQueue({ url, secrets: [SECRET], userAgent: "petstore/test" }, deps, options.capacity);
  const running = queue.run();
  return { queue, reports, sleeps, controller, running, close: () => transport.close() };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 5_000) throw new Error(`not within 5 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function receiverWith(responses: FakeResponse[]): Promise<string> {
  receiver = await startFakeApi(responses);
  return `${receiver.baseUrl}/hook`;
}

describe("the forward queue", () => {
  it("POSTs each event in order, one at a time, with the stream's exact body, signed and stable per event", async () => {
    const run = start(await receiverWith([{ status: 200 }]));
    const events = [1, 2, 3].map(eventOf);
    for (const event of events) expect(run.queue.push(event, bodyOf(event))).toBeUndefined();
    await until(() => run.reports.length === 3, "three deliveries");
    run.controller.abort();
    await run.running;
    await run.close();
    const requests = receiver!.requests;
    expect(requests.map((request) => [request.method, request.path, request.headers["webhook-id"]])).toEqual([
      ["POST", "/v1/hook", "evt_1"],
      ["POST", "/v1/hook", "evt_2"],
      ["POST", "/v1/hook", "evt_3"],
    ]);
    for (const [n, request] of requests.entries()) {
      expect(request.body).toBe(bodyOf(events[n]!));
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.headers["user-agent"]).toBe("petstore/test");
      expect(request.headers.authorization).toBeUndefined();
      const headers = request.headers as Record<string, string>;
      expect(new Webhook(SECRET).verify(request.body, headers)).toEqual(events[n]);
      expect(() => new Webhook(newWebhookSecret(randomBytes)).verify(request.body, headers)).toThrow();
    }
    expect(run.reports.map((report) => [report.event.id, report.attempt, report.status, report.outcome])).toEqual([
      [1, 1, 200, "delivered"],
      [2, 1, 200, "delivered"],
      [3, 1, 200, "delivered"],
    ]);
    expect(run.queue.undelivered()).toEqual([]);
  });

  it("retries 503 with backoff, keeping the order and the webhook-id, and re-signs each attempt", async () => {
    const run = start(await receiverWith([{ status: 503 }, { status: 503 }, { status: 503 }, { status: 200 }]));
    for (const event of [1, 2].map(eventOf)) run.queue.push(event, bodyOf(event));
    await until(() => run.reports.filter((report) => report.outcome === "delivered").length === 2, "both delivered");
    run.controller.abort();
    await run.running;
    await run.close();
    expect(receiver!.requests.map((request) => request.headers["webhook-id"])).toEqual(["evt_1", "evt_1", "evt_1", "evt_1", "evt_2"]);
    expect(run.reports.map((report) => [report.event.id, report.attempt, report.status, report.outcome])).toEqual([
      [1, 1, 503, "retrying"],
      [1, 2, 503, "retrying"],
      [1, 3, 503, "retrying"],
      [1, 4, 200, "delivered"],
      [2, 1, 200, "delivered"],
    ]);
    // 1 s doubling, times 0.75 for the test's jitter of 0.5.
    expect(run.sleeps).toEqual([750, 1500, 3000]);
    expect(run.reports.slice(0, 3).map((report) => report.retryInMs)).toEqual([750, 1500, 3000]);
  });

  it("honours a receiver's Retry-After, up to a minute", async () => {
    const run = start(await receiverWith([{ status: 429, headers: { "retry-after": "5" } }, { status: 503, headers: { "retry-after": "3600" } }, { status: 204 }]));
    run.queue.push(eventOf(1), bodyOf(eventOf(1)));
    await until(() => run.reports.at(-1)?.outcome === "delivered", "delivered");
    run.controller.abort();
    await run.running;
    await run.close();
    expect(run.sleeps).toEqual([5_000, 60_000]);
  });

  it("gives up on an event the receiver refuses with a 4xx or 3xx, and goes on with the next", async () => {
    const run = start(await receiverWith([{ status: 400 }, { status: 302, headers: { location: "http://127.0.0.1:1/elsewhere" } }, { status: 200 }]));
    for (const event of [1, 2, 3].map(eventOf)) run.queue.push(event, bodyOf(event));
    await until(() => run.reports.length === 3, "three answers");
    run.controller.abort();
    await run.running;
    await run.close();
    expect(receiver!.requests.map((request) => request.path)).toEqual(["/v1/hook", "/v1/hook", "/v1/hook"]);
    expect(run.reports.map((report) => [report.event.id, report.status, report.outcome])).toEqual([
      [1, 400, "failed"],
      [2, 302, "failed"],
      [3, 200, "delivered"],
    ]);
    expect(run.sleeps).toEqual([]);
  });

  it("retries a receiver that is not listening, saying why", async () => {
    const run = start(`${await unusedBaseUrl()}/hook`);
    run.queue.push(eventOf(1), bodyOf(eventOf(1)));
    await until(() => run.reports.length >= 3, "three attempts");
    run.controller.abort();
    await run.running;
    await run.close();
    expect(run.reports[0]?.status).toBeUndefined();
    expect(run.reports[0]).toMatchObject({ attempt: 1, outcome: "retrying", error: expect.stringMatching(/connection refused/) });
    expect(run.queue.undelivered().map((event) => event.id)).toEqual([1]);
  });

  it("holds at most `capacity` events: the stream's push waits until a delivery makes room", async () => {
    let answer = (): FakeResponse => ({ status: 503 });
    receiver = await startFakeApi(() => answer());
    const run = start(`${receiver.baseUrl}/hook`, { capacity: 2 });
    expect(run.queue.push(eventOf(1), bodyOf(eventOf(1)))).toBeUndefined();
    const full = run.queue.push(eventOf(2), bodyOf(eventOf(2)));
    expect(full).toBeInstanceOf(Promise);
    let roomMade = false;
    void full!.then(() => (roomMade = true));
    await until(() => run.reports.length >= 3, "retries of the first");
    expect(roomMade).toBe(false);
    expect(run.queue.undelivered().map((event) => event.id)).toEqual([1, 2]);
    answer = () => ({ status: 200 });
    await until(() => roomMade, "room after the first delivery");
    await until(() => run.queue.undelivered().length === 0, "all delivered");
    run.controller.abort();
    await run.running;
    await run.close();
  });

  it("stops during a retry's wait, and a full queue's push is let go: the rest is reported undelivered", async () => {
    const run = start(await receiverWith([{ status: 503 }]), { capacity: 2, hold: true });
    run.queue.push(eventOf(1), bodyOf(eventOf(1)));
    const full = run.queue.push(eventOf(2), bodyOf(eventOf(2)));
    await until(() => run.sleeps.length === 1, "waiting to retry");
    run.controller.abort();
    await run.running;
    await full;
    await run.close();
    expect(run.queue.undelivered().map((event) => event.id)).toEqual([1, 2]);
    expect(receiver!.requests).toHaveLength(1);
  });
});

describe("which answers are retried", () => {
  const answer = (status: number) => ({ kind: "answer" as const, status, headers: {}, text: "" });
  it.each([
    [200, "delivered"],
    [202, "delivered"],
    [204, "delivered"],
    [301, "failed"],
    [307, "failed"],
    [400, "failed"],
    [401, "failed"],
    [404, "failed"],
    [410, "failed"],
    [408, "retrying"],
    [429, "retrying"],
    [500, "retrying"],
    [502, "retrying"],
    [503, "retrying"],
    [504, "retrying"],
  ])("%i: %s", (status, outcome) => {
    expect(outcomeOf(answer(status))).toBe(outcome);
  });
});
