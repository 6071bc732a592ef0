import { writeFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { expectError, expectRateLimitHeaders, json } from "../helpers/assertions.js";
import { tempDbPath } from "../helpers/serve-process.js";
import { createKey, startTestServer, testClock, type TestServer } from "../helpers/test-server.js";

const NOON = Date.UTC(2026, 10, 22, 12, 0, 0);
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serverAt(clock = testClock(NOON), extra: Parameters<typeof startTestServer>[0] = {}) {
  const server = await startTestServer({ now: clock.now, ...extra });
  servers.push(server);
  return server;
}

const headersOf = (response: Response) => ({
  limit: Number(response.headers.get("x-ratelimit-limit")),
  remaining: Number(response.headers.get("x-ratelimit-remaining")),
  reset: Number(response.headers.get("x-ratelimit-reset")),
});

describe("per-plan windows", () => {
  it("free: 60 a minute, then 429 rate_limited with Retry-After to the minute's end; the next minute serves again", async () => {
    const clock = testClock(NOON + 30_000);
    const server = await serverAt(clock);
    const { key } = await createKey(server, { plan: "free" });
    for (let i = 1; i <= 60; i++) {
      const response = await server.api("/pets", { key });
      expect(response.status).toBe(200);
      expect(headersOf(response)).toEqual({ limit: 60, remaining: 60 - i, reset: (NOON + 60_000) / 1000 });
    }
    const refused = await server.api("/pets", { key });
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(headersOf(refused)).toEqual({ limit: 60, remaining: 0, reset: (NOON + 60_000) / 1000 });
    expectRateLimitHeaders(refused);
    expect(await expectError(refused, 429, "rate_limited")).toMatch(/retry in 30 s/);
    clock.advance(30_000);
    const next = await server.api("/pets", { key });
    expect(next.status).toBe(200);
    expect(headersOf(next).remaining).toBe(59);
  });

  it("free: 1,000 a day across minutes; then 429 until the UTC day ends; 429s count against neither window", async () => {
    const clock = testClock(NOON);
    const server = await serverAt(clock);
    const { key } = await createKey(server, { plan: "free" });
    let served = 0;
    while (served < 1000) {
      for (let i = 0; i < 60 && served < 1000; i++, served++) {
        expect((await server.local("/pets?limit=1", { key })).status).toBe(200);
      }
      clock.advance(60_000);
    }
    const refused = await server.api("/pets", { key });
    expect(headersOf(refused)).toEqual({ limit: 1000, remaining: 0, reset: Date.UTC(2026, 10, 23) / 1000 });
    const secondsToMidnight = (Date.UTC(2026, 10, 23) - clock.now()) / 1000;
    expect(refused.headers.get("retry-after")).toBe(String(secondsToMidnight));
    await expectError(refused, 429, "rate_limited");
    clock.set(Date.UTC(2026, 10, 23));
    const tomorrow = await server.api("/pets", { key });
    expect(tomorrow.status).toBe(200);
    expect(tomorrow.headers.get("ratelimit")).toBe('"minute";r=59;t=60, "day";r=999;t=86400');
  });

  it.each([
    ["pro", 300, 10000],
    ["business", 1000, 100000],
  ])("%s: headers show %i a minute and %i a day", async (plan, perMinute, perDay) => {
    const server = await serverAt(testClock(NOON + 12_000));
    const { key } = await createKey(server, { plan });
    const response = await server.api("/pets", { key });
    expect(headersOf(response)).toEqual({ limit: perMinute, remaining: perMinute - 1, reset: (NOON + 60_000) / 1000 });
    expect(response.headers.get("ratelimit-policy")).toBe(`"minute";q=${perMinute};w=60, "day";q=${perDay};w=86400`);
    expect(response.headers.get("ratelimit")).toBe(`"minute";r=${perMinute - 1};t=48, "day";r=${perDay - 1};t=${86400 - 12 * 3600 - 12}`);
  });

  it("pro: the 301st request in a minute is refused", async () => {
    const server = await serverAt();
    const { key } = await createKey(server, { plan: "pro" });
    const statuses = await Promise.all(Array.from({ length: 301 }, () => server.local("/pets?limit=1", { key }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(300);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
  });

  it("reports the window closest to exhaustion: the minute on a tie, the day when it has fewer left", async () => {
    const clock = testClock(NOON);
    const server = await serverAt(clock);
    const { key } = await createKey(server, { plan: "enterprise", perMinute: 5, perDay: 5 });
    const tie = await server.api("/pets", { key });
    expect(headersOf(tie)).toEqual({ limit: 5, remaining: 4, reset: (NOON + 60_000) / 1000 });
    clock.advance(60_000);
    const dayCloser = await server.api("/pets", { key });
    expect(headersOf(dayCloser)).toEqual({ limit: 5, remaining: 3, reset: Date.UTC(2026, 10, 23) / 1000 });
    expect(dayCloser.headers.get("ratelimit")).toBe('"minute";r=4;t=60, "day";r=3;t=43140');
  });
});

describe("headers on every kind of response", () => {
  it.each([
    ["200", "GET", "/pets", undefined, 200],
    ["201", "POST", "/pets", { name: "a", categoryId: 1 }, 201],
    ["400", "GET", "/pets?limit=0", undefined, 400],
    ["404", "GET", "/pets/424242", undefined, 404],
    ["404 outside /v1", "GET", "/../nowhere", undefined, 404],
  ])("%s", async (_label, method, path, body, status) => {
    const server = await serverAt();
    const response = await server.api(path, { method, json: body });
    expect(response.status).toBe(status);
    expectRateLimitHeaders(response);
  });
});

describe("anonymous callers", () => {
  it("are limited per client IP at the free plan's numbers: the 61st 401 in a minute becomes a 429", async () => {
    const server = await serverAt();
    for (let i = 0; i < 60; i++) {
      const response = await server.api("/pets", { key: "ps_wrong_wrong_wrong_wrong_wrong_wrong" });
      expect(response.status).toBe(401);
      expect(headersOf(response).remaining).toBe(59 - i);
    }
    await expectError(await server.api("/pets", { key: null }), 429, "rate_limited");
    expect((await server.api("/pets")).status).toBe(200);
  });
});

describe("temporary ban", () => {
  it("bans a key that sends more rejected requests than the window's limit: key_banned for 15 minutes", async () => {
    const clock = testClock(NOON);
    const server = await serverAt(clock);
    const { key } = await createKey(server, { plan: "enterprise", perMinute: 3, perDay: 1000 });
    for (let i = 0; i < 3; i++) expect((await server.api("/pets", { key })).status).toBe(200);
    for (let i = 0; i < 3; i++) await expectError(await server.api("/pets", { key }), 429, "rate_limited");
    const banned = await server.api("/pets", { key });
    expect(banned.headers.get("retry-after")).toBe("900");
    expect(await expectError(banned, 429, "key_banned")).toMatch(/banned/);
    clock.advance(10 * 60_000);
    const still = await server.api("/pets", { key });
    expect(still.headers.get("retry-after")).toBe("300");
    await expectError(still, 429, "key_banned");
    clock.advance(5 * 60_000);
    expect((await server.api("/pets", { key })).status).toBe(200);
  });

  it("takes its threshold and duration from the serve config file", async () => {
    const config = await tempDbPath("limits.json");
    await writeFile(config, JSON.stringify({ plans: { free: { perMinute: 2 } }, ban: { threshold: 2, durationSeconds: 60 } }));
    const server = await serverAt(testClock(NOON), { configFile: config });
    const { key } = await createKey(server, { plan: "free" });
    expect(headersOf(await server.api("/pets", { key })).limit).toBe(2);
    await server.api("/pets", { key });
    for (let i = 0; i < 4; i++) await expectError(await server.api("/pets", { key }), 429, "rate_limited");
    const banned = await server.api("/pets", { key });
    expect(banned.headers.get("retry-after")).toBe("60");
    await expectError(banned, 429, "key_banned");
  });
});

describe("exactness and persistence", () => {
  it("with R left, 250 concurrent requests give exactly R successes", async () => {
    const server = await serverAt();
    const { key } = await createKey(server, { plan: "enterprise", perMinute: 10_000, perDay: 180 });
    for (let i = 0; i < 7; i++) await server.api("/pets?limit=1", { key });
    const statuses = await Promise.all(Array.from({ length: 250 }, () => server.local("/pets?limit=1", { key }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(173);
    expect(statuses.filter((s) => s === 429)).toHaveLength(77);
  });

  it("keeps the counts across a restart within the window", async () => {
    const clock = testClock(NOON);
    const first = await serverAt(clock);
    const { key } = await createKey(first, { plan: "enterprise", perMinute: 100, perDay: 10 });
    for (let i = 0; i < 6; i++) await first.api("/pets", { key });
    await first.close();
    servers.splice(servers.indexOf(first), 1);
    clock.advance(5 * 60_000);
    const second = await serverAt(clock, { db: first.dbPath });
    const response = await second.api("/pets", { key });
    expect(headersOf(response)).toEqual({ limit: 10, remaining: 3, reset: Date.UTC(2026, 10, 23) / 1000 });
  });

  it("creates a bootstrap admin key once when PETSTORE_ADMIN_KEY is unset, and prints it on stderr", async () => {
    const first = await serverAt(testClock(NOON), { adminKey: undefined });
    const printed = /(ps_[0-9A-Za-z]{32,})/.exec(first.stderr())?.[1];
    expect(printed).toBeDefined();
    expect(first.stderr()).toMatch(/shown only this once/);
    const keys = await json(await first.api("/keys", { key: printed }));
    expect(keys).toEqual([expect.objectContaining({ admin: true, plan: "enterprise", limits: { perMinute: 100000, perDay: 100000000 } })]);
    await first.close();
    servers.splice(servers.indexOf(first), 1);
    const second = await serverAt(testClock(NOON), { adminKey: undefined, db: first.dbPath });
    expect(second.stderr()).not.toMatch(/ps_/);
    expect((await second.api("/pets", { key: printed })).status).toBe(200);
  });
});
