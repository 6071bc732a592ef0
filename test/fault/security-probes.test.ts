// The smaller holes a prober found, each probed from outside on the real server: /readyz under a
// flood, /docs compressed and bounded, /metrics token guessing, key-shaped request ids and
// escaped secrets in the log, and the rate-limit headers of a ban.
import { watch } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, expectRateLimitHeaders } from "../helpers/assertions.js";
import { createKey, startTestServer, testClock, type TestServer } from "../helpers/test-server.js";

const METRICS_TOKEN = "metrics_token_of_the_probes_0123";
const clock = testClock();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ now: clock.now, quiet: false, metricsToken: METRICS_TOKEN });
});
afterAll(() => server?.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.origin}${path}`, { headers });

describe("/readyz under a flood", () => {
  it("300 probes at once cost one storage probe a second (a file written beside the db), and each answers 200", async () => {
    const probes = new Set<string>();
    const watcher = watch(dirname(server.dbPath), (_, name) => {
      if (name?.endsWith(".readyz")) probes.add(name);
    });
    try {
      const started = Date.now();
      const answers = await Promise.all(Array.from({ length: 300 }, () => get("/readyz")));
      const seconds = Math.ceil((Date.now() - started) / 1000);
      expect(answers.map((answer) => answer.status)).toEqual(Array(300).fill(200));
      await new Promise((resolve) => setTimeout(resolve, 100));
      // One round at a time, each reused for a second after it: however slow this machine is.
      expect(probes.size).toBeGreaterThanOrEqual(1);
      expect(probes.size).toBeLessThanOrEqual(seconds + 1);
    } finally {
      watcher.close();
    }
  });
});

describe("/docs", () => {
  const bundle = () => readFile(createRequire(import.meta.url).resolve("swagger-ui-dist/swagger-ui-bundle.js"));

  it.each(["br", "gzip"])("sends Swagger UI's bundle in %s when accepted, tagged as that coding, cached a day", async (coding) => {
    const response = await get("/docs/swagger-ui-bundle.js", { "accept-encoding": coding });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe(coding);
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    expect(response.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(response.headers.get("etag")).toMatch(new RegExp(`^"swagger-ui-[\\d.]+-swagger-ui-bundle\\.js-${coding}"$`));
    // fetch decodes it: the bytes are the package's own, sent in a third of their size or less.
    expect(Number(response.headers.get("content-length"))).toBeLessThan((await bundle()).length / 3);
    expect(Buffer.from(await response.arrayBuffer()).equals(await bundle())).toBe(true);
    const again = await get("/docs/swagger-ui-bundle.js", { "accept-encoding": coding, "if-none-match": response.headers.get("etag")! });
    expect(again.status).toBe(304);
  });

  it("counts anonymous requests per client address in a bound of their own: 429 with the usual headers past it", async () => {
    // On a clock that stands still: 121 requests on a loaded machine can cross a minute of the real one.
    const own = await startTestServer({ now: clock.now });
    try {
      const anonymous = await own.api("/pets", { key: null });
      let last: Response | undefined;
      for (let i = 0; i < 121; i++) {
        last = await fetch(`${own.origin}/docs`);
        if (last.status !== 200) break;
        await last.body?.cancel();
      }
      expect(last!.status).toBe(429);
      expect(await expectError(last!, 429, "rate_limited")).toMatch(/^rate limit exceeded; retry in \d+ s/);
      expectRateLimitHeaders(last!);
      expect(last!.headers.get("x-ratelimit-limit")).toBe("120");
      expect(last!.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
      // The anonymous limit of the API is another count, untouched by the page's files.
      const after = await own.api("/pets", { key: null });
      expect(Number(after.headers.get("x-ratelimit-remaining"))).toBe(Number(anonymous.headers.get("x-ratelimit-remaining")) - 1);
    } finally {
      await own.close();
    }
  });
});

describe("/metrics token guessing", () => {
  const scrape = (token: string) => get("/metrics", { authorization: `Bearer ${token}` });

  it("counts wrong tokens per client address: 10 get 401 with the headers counting down, then 429, the right token too", async () => {
    for (let i = 0; i < 10; i++) {
      const wrong = await scrape(`wrong_token_${i}_0123456789abcdef`);
      expect(await expectError(wrong, 401, "unauthorized")).toBe("GET /metrics needs the header Authorization: Bearer <metrics token>");
      expect(wrong.headers.get("x-ratelimit-remaining")).toBe(String(9 - i));
    }
    const refused = await scrape("wrong_token_eleven_0123456789abc");
    expect(await expectError(refused, 429, "rate_limited")).toMatch(/^too many wrong metrics tokens from this address; retry in \d+ s$/);
    expectRateLimitHeaders(refused);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    await expectError(await scrape(METRICS_TOKEN), 429, "rate_limited");
    // Its window over, the right token scrapes again.
    clock.advance(60_000);
    expect((await scrape(METRICS_TOKEN)).status).toBe(200);
  });
});

describe("secrets in request ids and the log", () => {
  it("an X-Request-Id shaped like a key or a ticket is replaced by a generated one, and never logged", async () => {
    const secret = `ps_${"A1b2C3d4E5".repeat(4)}`;
    const ticket = "evt_key_AbCdEfGhIjKlMnOp.1795483620.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ";
    for (const id of [secret, ticket, `trace-${secret}`]) {
      const response = await server.api("/pets", { headers: { "x-request-id": id } });
      expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(server.stderr()).not.toContain("A1b2C3d4E5");
    expect(server.stderr()).not.toContain("abcdefghijklmnopqrstuvwxyz");
  });

  it("a key percent-escaped in the URL is masked in the log line as it would be in clear", async () => {
    const rest = "Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0PpOoNnMm";
    for (const escaped of [`ps%5F${rest}`, `%70%73%5f${rest}`, `ps%255F${rest}`]) await server.api(`/pets?status=${escaped}`);
    const lines = server.stderr().split("\n").filter((line) => line.includes("GET /v1/pets?status="));
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).toMatch(/GET \/v1\/pets\?status=ps_\[redacted\] 400 /);
    expect(server.stderr()).not.toContain(rest.slice(0, 12));
  });
});

describe("the rate-limit headers of a ban", () => {
  it("say no request is left and that the window resets when the ban ends, in both header families", async () => {
    const { key } = await createKey(server, { plan: "enterprise", perMinute: 2, perDay: 1000 });
    let banned: Response | undefined;
    for (let i = 0; i < 10 && banned === undefined; i++) {
      const response = await server.api("/pets", { key });
      if (response.status === 429 && ((await response.clone().json()) as { code: string }).code === "key_banned") banned = response;
    }
    await expectError(banned!, 429, "key_banned");
    const retryAfter = Number(banned!.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(60);
    const banEnds = Math.ceil(clock.now() / 1000) + retryAfter;
    expect(banned!.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(banned!.headers.get("x-ratelimit-reset")).toBe(String(banEnds));
    expect(banned!.headers.get("ratelimit")).toBe(`"minute";r=0;t=${retryAfter}, "day";r=0;t=${retryAfter}`);
  });
});
