// The private internals of h3 and srvx the server reads (src/server/internal/framework-internals.ts):
// each is still there in the installed versions, and the public paths that replace them answer
// the same, over a real listener, for every kind of answer (kept, serialised, text, 204, 304,
// errors, compressed, CORS headers set by a middleware, the event stream).
import { readFile } from "node:fs/promises";
import { FastResponse } from "srvx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pkg from "../../package.json" with { type: "json" };
import { frameworkInternals, missingInternals, PUBLIC_PATHS, type FrameworkInternals } from "../../src/server/internal/framework-internals.js";
import { startTestServer, testClock, type TestServer } from "../helpers/test-server.js";

const APP = "http://app.example.test";

describe("the installed h3 and srvx", () => {
  it("are the exact versions package.json pins", async () => {
    // Read from the file: srvx does not export its package.json.
    const installed = async (name: string) =>
      (JSON.parse(await readFile(new URL(`../../node_modules/${name}/package.json`, import.meta.url), "utf8")) as { version: string }).version;
    expect(pkg.dependencies.h3).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pkg.dependencies.srvx).toMatch(/^\d+\.\d+\.\d+$/);
    expect(await installed("h3")).toBe(pkg.dependencies.h3);
    expect(await installed("srvx")).toBe(pkg.dependencies.srvx);
  });

  it("still have every private internal the server reads", () => {
    const message =
      "An upgrade removed a private internal the server reads: it now serves through the public path, slower. " +
      "Adapt src/server/internal/framework-internals.ts to the new version, or keep the old one pinned.";
    expect(missingInternals(), message).toEqual([]);
  });

  it("are used through their private paths when they have them", () => {
    const parts = frameworkInternals().nodeParts(new FastResponse("probe", { status: 202 }));
    expect(parts).toMatchObject({ status: 202, body: "probe" });
  });
});

/** What the public paths were asked, to show the server ran through them. */
function observed(): { internals: FrameworkInternals; calls: { headers: number; parts: number } } {
  const calls = { headers: 0, parts: 0 };
  const internals: FrameworkInternals = {
    hasResponseHeaders: (event) => (calls.headers++, PUBLIC_PATHS.hasResponseHeaders(event)),
    nodeParts: (response) => (calls.parts++, PUBLIC_PATHS.nodeParts(response)),
  };
  return { internals, calls };
}

interface Exchange {
  method?: string;
  path: string;
  key?: string | null;
  json?: unknown;
  headers?: Record<string, string>;
}

/** Status, headers (but the request's own id and the date) and body, as a client sees them; the server's own origin as ORIGIN. */
async function answer(server: TestServer, exchange: Exchange) {
  const response = await server.api(exchange.path, { method: exchange.method, key: exchange.key, json: exchange.json, headers: exchange.headers });
  const headers = [...response.headers].filter(([name]) => name !== "date" && name !== "x-request-id").map(([name, value]) => [name, value.replaceAll(server.origin, "ORIGIN")]);
  return { status: response.status, statusText: response.statusText, headers: headers.sort(), body: (await response.text()).replaceAll(server.origin, "ORIGIN") };
}

/** The first bytes of the event stream, then the connection is dropped. */
async function streamStart(server: TestServer) {
  const abort = new AbortController();
  const response = await fetch(`${server.baseUrl}/events`, { headers: { authorization: `Bearer ${server.adminKey}` }, signal: abort.signal });
  const first = await response.body!.getReader().read();
  abort.abort();
  const headers = [...response.headers].filter(([name]) => name !== "date" && name !== "x-request-id").sort();
  return { status: response.status, headers, first: new TextDecoder().decode(first.value) };
}

const EXCHANGES: Exchange[] = [
  { method: "POST", path: "/pets", json: { name: "Rex", categoryId: 1 } },
  { method: "POST", path: "/pets", json: { name: "Tom", categoryId: 2, status: "sold" } },
  { path: "/pets?limit=1" },
  { path: "/pets?limit=1" },
  { path: "/pets?limit=1", headers: { "if-none-match": '"page-none"' } },
  { path: "/pets/1" },
  { path: "/pets/1", headers: { "if-none-match": '"pet-1-1"' } },
  { method: "PATCH", path: "/pets/1", json: { name: "Rexy" }, headers: { "if-match": '"pet-1-1"' } },
  { method: "HEAD", path: "/pets" },
  { path: "/pets", headers: { origin: APP } },
  { path: "/pets?limit=100", headers: { "accept-encoding": "gzip" } },
  { path: "/pets/999" },
  { path: "/pets?stauts=sold" },
  { method: "PUT", path: "/pets" },
  { path: "/pets", key: "ps_not_a_key" },
  { path: "/openapi.json", key: null, headers: { "accept-encoding": "identity" } },
  { path: "/store/inventory" },
  { method: "DELETE", path: "/pets/2" },
  { path: "/../healthz", key: null },
];

describe("a server through the public paths alone", () => {
  let usual: TestServer;
  let fallback: TestServer;
  const { internals, calls } = observed();
  beforeAll(async () => {
    // Same clock, same data, same order of requests: the answers can be compared byte for byte.
    usual = await startTestServer({ now: testClock().now, corsOrigins: [APP] });
    fallback = await startTestServer({ now: testClock().now, corsOrigins: [APP], frameworkInternals: internals });
  });
  afterAll(async () => {
    await usual?.close();
    await fallback?.close();
  });

  it("answers every request exactly as the usual server does", async () => {
    for (const exchange of EXCHANGES) {
      const label = `${exchange.method ?? "GET"} ${exchange.path}`;
      expect(await answer(fallback, exchange), label).toEqual(await answer(usual, exchange));
    }
    expect(calls.headers).toBeGreaterThan(0);
    expect(calls.parts).toBeGreaterThanOrEqual(EXCHANGES.length);
  });

  it("opens the event stream as the usual server does", async () => {
    expect(await streamStart(fallback)).toEqual(await streamStart(usual));
  });
});
