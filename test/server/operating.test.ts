// Issue 18 on the real server in this process: /readyz, /metrics, request ids, audit lines,
// JSON logs and --trust-proxy. Runs over lowdb and (project "postgres") PostgreSQL and Redis.
import { rm } from "node:fs/promises";
import { dirname } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseTrustProxy } from "../../src/support/trust-proxy.js";
import { expectError } from "../helpers/assertions.js";
import { openSse } from "../helpers/sse-client.js";
import { testBackend } from "../helpers/test-backend.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { clearOfWindowEnd } from "../helpers/window-edge.js";

const METRICS_TOKEN = "metrics_token_0123456789abcdef";
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function start(...args: Parameters<typeof startTestServer>): Promise<TestServer> {
  const server = await startTestServer(...args);
  servers.push(server);
  return server;
}

describe("GET /readyz", () => {
  it("answers 200 without a key and without rate-limit headers while the engines answer", async () => {
    const server = await start();
    const response = await fetch(`${server.origin}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ready" });
    expect(response.headers.get("x-ratelimit-limit")).toBeNull();
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  // Registered only over the file engine: PostgreSQL outages are tested in test/scale/readyz.test.ts.
  if (testBackend() === "lowdb") it("answers 503 naming the db directory once it is gone, while /healthz stays 200", async () => {
    const server = await start();
    await rm(dirname(server.dbPath), { recursive: true, force: true });
    const response = await fetch(`${server.origin}/readyz`);
    const message = await expectError(response, 503, "storage_unavailable");
    expect(message).toContain(`not ready: db directory ${dirname(server.dbPath)}`);
    expect(message).toContain("ENOENT");
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
  });
});

describe("X-Request-Id", () => {
  it("echoes a sane id, replaces an unsafe one, and logs it on the request line", async () => {
    const server = await start({ quiet: false });
    const echoed = await server.api("/pets", { headers: { "x-request-id": "lb-7f3a.42" } });
    expect(echoed.headers.get("x-request-id")).toBe("lb-7f3a.42");
    const replaced = await server.api("/pets", { headers: { "x-request-id": "bad id\twith spaces" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const refused = await server.api("/pets", { key: null, headers: { "x-request-id": "x".repeat(129) } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.stderr()).toMatch(/GET \/v1\/pets 200 \d+\.\dms id=lb-7f3a\.42\n/);
    expect(server.stderr()).not.toContain("bad id");
  });
});

describe("audit lines", () => {
  it("log who created and revoked a key, never its secret", async () => {
    const server = await start({ quiet: true, logFormat: "json" });
    const created = (await (await server.api("/keys", { json: { plan: "free", name: "ci" } })).json()) as { id: string; key: string };
    expect((await server.api(`/keys/${created.id}`, { method: "DELETE" })).status).toBe(204);
    const lines = server.stderr().trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    const audits = lines.filter((line) => "audit" in line);
    expect(audits).toEqual([
      expect.objectContaining({ level: "info", audit: "key.created", actor: "key_environment_admin", keyId: created.id, plan: "free" }),
      expect.objectContaining({ level: "info", audit: "key.revoked", actor: "key_environment_admin", keyId: created.id }),
    ]);
    expect(audits.every((line) => typeof line.time === "string" && typeof line.requestId === "string")).toBe(true);
    expect(server.stderr()).not.toContain(created.key);
  });
});

describe("GET /metrics", () => {
  it("is 404 on the main port unless --metrics-token, and 401 to anything but that token", async () => {
    const plain = await start();
    expect((await fetch(`${plain.origin}/metrics`)).status).toBe(404);
    const server = await start({ metricsToken: METRICS_TOKEN });
    await expectError(await fetch(`${server.origin}/metrics`), 401, "unauthorized");
    const wrongKey = await fetch(`${server.origin}/metrics`, { headers: { authorization: `Bearer ${server.adminKey}` } });
    expect(wrongKey.status).toBe(401);
  });

  it("counts requests by route template, refusals by reason, and pets by status", async () => {
    const server = await start({ metricsToken: METRICS_TOKEN });
    for (const name of ["a", "b"]) expect((await server.api("/pets", { json: { name, categoryId: 1 } })).status).toBe(201);
    expect((await server.api("/pets/1", { method: "PATCH", json: { status: "sold" } })).status).toBe(200);
    await server.api("/pets/2");
    const response = await fetch(`${server.origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const text = await response.text();
    expect(text).toContain('petstore_http_requests_total{route="/v1/pets",method="POST",status="201"} 2');
    expect(text).toContain('petstore_http_requests_total{route="/v1/pets/:petId",method="GET",status="200"} 1');
    expect(text).toMatch(/petstore_http_request_duration_seconds_count\{route="\/v1\/pets"\} 2/);
    expect(text).toContain('petstore_pets{status="available"} 1');
    expect(text).toContain('petstore_pets{status="sold"} 1');
    expect(text).toContain("process_cpu_seconds_total");
    if (testBackend() === "lowdb") {
      expect(text).toMatch(/petstore_store_write_batch_size_count\{engine="lowdb"\} [1-9]/);
      expect(text).toMatch(/petstore_journal_bytes_total [1-9]\d*/);
    } else {
      expect(text).toMatch(/petstore_store_write_batch_size_sum\{engine="postgres"\} 2\n/);
    }
  });

  it("serves --metrics-port on loopback, and only /metrics there", async () => {
    const server = await start({ metricsPort: 0 });
    expect(server.metricsOrigin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const scraped = await fetch(`${server.metricsOrigin}/metrics`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain("# TYPE petstore_http_requests_total counter");
    expect((await fetch(`${server.metricsOrigin}/v1/pets`)).status).toBe(404);
  });

  it("counts a 429 by its reason", async () => {
    const server = await start({ metricsToken: METRICS_TOKEN });
    let status = 0;
    for (let i = 0; i < 200 && status !== 429; i++) status = (await server.api("/openapi.json", { key: null })).status;
    expect(status).toBe(429);
    const text = await (await fetch(`${server.origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(text).toMatch(/petstore_rate_limit_refusals_total\{reason="rate_limited"\} 1\n/);
  });
});

describe("--trust-proxy", () => {
  const remaining = async (server: TestServer, forwardedFor: string) =>
    Number((await server.api("/openapi.json", { key: null, headers: { "x-forwarded-for": forwardedFor } })).headers.get("x-ratelimit-remaining"));

  it("without it, every anonymous client behind a proxy shares one bucket", async () => {
    const server = await start();
    // The server runs on the wall clock: the counts compared here must fall in one minute.
    await clearOfWindowEnd(2_000);
    const first = await remaining(server, "203.0.113.1");
    expect(await remaining(server, "203.0.113.2")).toBe(first - 1);
  });

  it("with one hop, each forwarded client has its own bucket; IPv6 clients share theirs per /56", async () => {
    const server = await start({ trustProxy: parseTrustProxy("1") });
    // The server runs on the wall clock: the counts compared here must fall in one minute.
    await clearOfWindowEnd(2_000);
    const first = await remaining(server, "203.0.113.1");
    expect(await remaining(server, "203.0.113.2")).toBe(first);
    expect(await remaining(server, "203.0.113.1")).toBe(first - 1);
    const v6 = await remaining(server, "2001:db8:0:100::1");
    expect(await remaining(server, "2001:db8:0:1ff::2")).toBe(v6 - 1);
    expect(await remaining(server, "2001:db8:0:200::1")).toBe(first);
  });
});

describe("event stream metrics", () => {
  it("counts the event streams open now", async () => {
    const server = await start({ metricsToken: METRICS_TOKEN });
    const scrape = async () =>
      (await (await fetch(`${server.origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()).match(
        /^petstore_event_streams_open (\d+)$/m,
      )?.[1];
    expect(await scrape()).toBe("0");
    const streams = [await openSse(`${server.baseUrl}/events`, server.adminKey), await openSse(`${server.baseUrl}/events`, server.adminKey)];
    expect(await scrape()).toBe("2");
    for (const stream of streams) stream.close();
    await vi.waitFor(async () => expect(await scrape()).toBe("0"));
  });
});

describe("request metrics", () => {
  it("label a path outside the route table `unmatched`, with its 404", async () => {
    const server = await start({ metricsToken: METRICS_TOKEN });
    expect((await server.api("/no/such/thing")).status).toBe(404);
    expect((await server.api("/pets/abc")).status).toBe(400);
    const text = await (await fetch(`${server.origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(text).toContain('petstore_http_requests_total{route="unmatched",method="GET",status="404"} 1');
    expect(text).toContain('petstore_http_requests_total{route="/v1/pets/:petId",method="GET",status="400"} 1');
  });
});
