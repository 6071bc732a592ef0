// Rate limits under load over real HTTP: 500 concurrent requests against a key with R left get
// exactly R successes, and a restart in the middle of a window keeps the counts.
import { Agent, request } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import { expectError, expectRateLimitHeaders } from "../helpers/assertions.js";
import { startServeProcess, type ServeProcess } from "../helpers/serve-process.js";
import { callApi, createKey, startTestServer, testClock, type TestServer } from "../helpers/test-server.js";
import { clearOfWindowEnd, DAY } from "../helpers/window-edge.js";

const CONCURRENT = 500;
// One connection per request, so all 500 are in flight at once.
const agent = new Agent({ connections: CONCURRENT, pipelining: 1 });
afterAll(() => agent.close());

interface Outcome {
  status: number;
  remaining: number;
  retryAfter: string | undefined;
  code: string | undefined;
}

async function burst(baseUrl: string, key: string): Promise<Outcome[]> {
  return Promise.all(
    Array.from({ length: CONCURRENT }, async () => {
      const response = await request(`${baseUrl}/pets?limit=1`, { dispatcher: agent, headers: { authorization: `Bearer ${key}` }, headersTimeout: 15_000, bodyTimeout: 15_000 });
      const body = (await response.body.json()) as { code?: string };
      const header = (name: string) => response.headers[name] as string | undefined;
      return { status: response.statusCode, remaining: Number(header("x-ratelimit-remaining")), retryAfter: header("retry-after"), code: Array.isArray(body) ? undefined : body.code };
    }),
  );
}

/** Exactly `left` successes, counting the remaining requests down to 0 once each; the rest 429 with Retry-After. */
function expectExactly(outcomes: Outcome[], left: number): void {
  const served = outcomes.filter((outcome) => outcome.status === 200);
  const refused = outcomes.filter((outcome) => outcome.status !== 200);
  expect(served.length).toBe(left);
  expect(served.map((outcome) => outcome.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: left }, (_, i) => i));
  for (const outcome of refused) {
    expect(outcome.status).toBe(429);
    expect(["rate_limited", "key_banned"]).toContain(outcome.code);
    expect(outcome.retryAfter).toMatch(/^[1-9]\d*$/);
    expect(outcome.remaining).toBe(0);
  }
}

describe("limits under load", () => {
  let server: TestServer | undefined;
  afterAll(async () => {
    await server?.close();
  });

  it("a free key with 35 left this minute, hit by 500 concurrent requests: exactly 35 are served", async () => {
    const clock = testClock(Date.UTC(2026, 10, 22, 12, 0, 20));
    server = await startTestServer({ now: clock.now });
    const { key } = await createKey(server, { plan: "free" });
    for (let i = 0; i < 25; i++) expect((await server.api("/pets", { key })).status).toBe(200);
    expectExactly(await burst(server.baseUrl, key), 35);
    const after = await callApi(server.baseUrl, key, "/pets");
    expectRateLimitHeaders(after);
    await expectError(after, 429, "key_banned");
  });

  it("a restart in the middle of the window keeps the counts, and the next burst gets exactly what is left", async () => {
    // The day window (100 a day) binds, so a minute turning on the real clock changes nothing; the
    // end of a UTC day would, and is waited out when near.
    await clearOfWindowEnd(10_000, DAY);
    let serve: ServeProcess = await startServeProcess();
    const admin = serve.adminKey;
    const created = await callApi(serve.baseUrl, admin, "/keys", { json: { plan: "enterprise", perMinute: 1_000_000, perDay: 100 } });
    const { key } = (await created.json()) as { key: string };
    for (let i = 1; i <= 40; i++) {
      const response = await callApi(serve.baseUrl, key, "/pets");
      expect(response.headers.get("x-ratelimit-remaining")).toBe(String(100 - i));
    }
    expect(await serve.stop("SIGTERM")).toBe(0);

    serve = await startServeProcess({ dbPath: serve.dbPath });
    try {
      const next = await callApi(serve.baseUrl, key, "/pets");
      expect(next.status).toBe(200);
      expect(next.headers.get("x-ratelimit-remaining")).toBe("59");
      expectExactly(await burst(serve.baseUrl, key), 59);
    } finally {
      expect(await serve.stop()).toBe(0);
    }
  }, 40_000);
});
