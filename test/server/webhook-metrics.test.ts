// The webhook side of /metrics over both engines, on a test clock: each attempt of this instance
// counted by outcome and timed, and the store's pending deliveries read when scraped.
import { afterEach, describe, expect, it } from "vitest";
import { json } from "../helpers/assertions.js";
import { startTestServer, testClock, type TestServer } from "../helpers/test-server.js";
import { startReceiver } from "../helpers/webhook-receiver.js";

const METRICS_TOKEN = "metrics_token_0123456789abcdef";
const WINDOW_MS = 3_600_000;
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function scrape(server: TestServer): Promise<string> {
  const response = await fetch(`${server.origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(response.status).toBe(200);
  return response.text();
}

/** The value of one sample (`name{labels} value`), or undefined when the text has none. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const attempts = (text: string, outcome: string) => sample(text, `petstore_webhook_delivery_attempts_total{outcome="${outcome}"}`);
const duration = (text: string, part: string) => sample(text, `petstore_webhook_delivery_duration_seconds${part}`);
const pending = (text: string) => sample(text, "petstore_webhook_deliveries_pending");

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (const started = Date.now(); !(await check()); await sleep(25)) {
    if (Date.now() - started > 5_000) throw new Error(`not within 5 s: ${what}`);
  }
}

describe("webhook metrics", () => {
  it("count this instance's attempts by outcome, time each, and read the pending deliveries from the store", async () => {
    const clock = testClock(Date.now());
    const webhooks = { allowPrivate: true, pollMs: 20, timeoutMs: 2_000, random: () => 0.5, retryForMs: WINDOW_MS };
    const server = await startTestServer({ now: clock.now, metricsToken: METRICS_TOKEN, webhooks });
    open.push(server);
    const hook = await startReceiver();
    open.push(hook);
    // The failing answer takes 300 ms: its attempt lands above the 0.25 s bucket, and the sum is in seconds.
    hook.answer((request) => (JSON.parse(request.body).data.name === "bad" ? { status: 500, headers: { "retry-after": "86400" }, delayMs: 300 } : { status: 200 }));

    const before = await scrape(server);
    expect([attempts(before, "succeeded"), attempts(before, "retried"), attempts(before, "failed")]).toEqual([0, 0, 0]);
    expect([duration(before, "_count"), pending(before)]).toEqual([0, 0]);
    expect(before).toContain("# TYPE petstore_webhook_delivery_attempts_total counter");
    expect(before).toContain("# TYPE petstore_webhook_delivery_duration_seconds histogram");
    expect(before).toContain("# TYPE petstore_webhook_deliveries_pending gauge");

    const { id } = await json(await server.api("/webhooks", { json: { url: hook.url } }));
    for (const name of ["good", "bad"]) await server.api("/pets", { json: { name, categoryId: 1 } });
    const recorded = async () => ((await json(await server.api(`/webhooks/${id}/deliveries`))) as { attempts: number }[]).every((delivery) => delivery.attempts >= 1);
    await until("both attempted", recorded);
    await until("both counted", async () => duration(await scrape(server), "_count") === 2);

    const after = await scrape(server);
    expect([attempts(after, "succeeded"), attempts(after, "retried"), attempts(after, "failed")]).toEqual([1, 1, 0]);
    expect(duration(after, '_bucket{le="0.25"}')).toBeLessThanOrEqual(1);
    expect([duration(after, '_bucket{le="10"}'), duration(after, '_bucket{le="+Inf"}')]).toEqual([2, 2]);
    expect(duration(after, "_sum")).toBeGreaterThanOrEqual(0.3);
    expect(duration(after, "_sum")).toBeLessThan(5);
    expect(pending(after)).toBe(1);

    // Past the window: the bad one's last attempt fails, and nothing is pending.
    clock.advance(WINDOW_MS + 60_000);
    await until("the last attempt counted", async () => duration(await scrape(server), "_count") === 3);
    const ended = await scrape(server);
    expect([attempts(ended, "succeeded"), attempts(ended, "retried"), attempts(ended, "failed")]).toEqual([1, 1, 1]);
    expect(duration(ended, '_bucket{le="+Inf"}')).toBe(3);
    expect(pending(ended)).toBe(0);
  });
});
