// CORS with --cors-origin: preflights answered without a key and without a count, every answer to
// an allowed origin readable (errors too), other origins left without CORS headers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS } from "../../src/server/cors.js";
import { createKey, startTestServer, type TestServer } from "../helpers/test-server.js";
import { clearOfWindowEnd } from "../helpers/window-edge.js";

const APP = "http://app.example.test:5173";
const OTHER = "https://evil.example.test";

let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer({ corsOrigins: [APP, "https://admin.example.test"] });
  key = (await createKey(server, { plan: "enterprise", perMinute: 4, perDay: 1000 })).key;
  await server.api("/pets", { json: { name: "Rex", categoryId: 1 } });
});
afterAll(() => server?.close());

const preflight = (path: string, origin: string, method = "POST") =>
  fetch(`${server.baseUrl}${path}`, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": method, "access-control-request-headers": "authorization,content-type" },
  });

// Vary as far as CORS is concerned: compression adds Accept-Encoding to it (fetch asks for gzip).
const corsVary = (value: string) => value.split(/,\s*/).filter((token) => token !== "Accept-Encoding").join(", ");
const corsHeaders = (response: Response) =>
  Object.fromEntries(
    [...response.headers]
      .filter(([name]) => name.startsWith("access-control-") || name === "vary")
      .map(([name, value]): [string, string] => [name, name === "vary" ? corsVary(value) : value])
      .filter(([name, value]) => name !== "vary" || value !== ""),
  );
const readable = { "access-control-allow-origin": APP, "access-control-expose-headers": CORS_EXPOSE_HEADERS, vary: "Origin" };

describe("an allowed origin", () => {
  it("preflight: 204 with the path's methods, the request headers, a max age and Vary, no body", async () => {
    const response = await preflight("/pets", APP);
    expect(response.status).toBe(204);
    expect(corsHeaders(response)).toEqual({
      "access-control-allow-origin": APP,
      "access-control-allow-methods": "GET, HEAD, POST",
      "access-control-allow-headers": CORS_ALLOW_HEADERS,
      "access-control-max-age": "600",
      vary: "Origin",
    });
    expect(CORS_ALLOW_HEADERS).toBe("Authorization, Content-Type, Idempotency-Key, If-Match, If-None-Match, Last-Event-ID, X-Request-Id");
    expect(response.headers.get("x-ratelimit-remaining")).toBeNull();
    expect(await response.text()).toBe("");
    expect((await preflight("/pets/1", APP, "PATCH")).headers.get("access-control-allow-methods")).toBe("GET, HEAD, PATCH, DELETE");
  });

  it("a preflight is not counted against the rate limit", async () => {
    const { key: own } = await createKey(server, { plan: "enterprise", perMinute: 50, perDay: 1000 });
    const remaining = async () => Number((await server.api("/pets", { key: own, headers: { origin: APP } })).headers.get("x-ratelimit-remaining"));
    // The server runs on the wall clock: the counts compared here must fall in one minute.
    await clearOfWindowEnd(2_000);
    const before = await remaining();
    for (let i = 0; i < 5; i++) expect((await preflight("/pets", APP)).status).toBe(204);
    expect(await remaining()).toBe(before - 1);
  });

  it("a 200 carries Allow-Origin and Expose-Headers, which name every non-safelisted header the server sent", async () => {
    const response = await server.api("/pets", { headers: { origin: APP } });
    expect(response.status).toBe(200);
    expect(corsHeaders(response)).toEqual(readable);
    const exposed = CORS_EXPOSE_HEADERS.toLowerCase().split(", ");
    const safelisted = ["cache-control", "content-language", "content-length", "content-type", "expires", "last-modified", "pragma"];
    // And the headers addressed to the browser itself, which no app script has a use for.
    const transport = ["connection", "date", "keep-alive", "vary", "x-content-type-options"];
    const sent = [...response.headers.keys()].filter((name) => !name.startsWith("access-control-") && ![...safelisted, ...transport].includes(name));
    expect(sent.filter((name) => !exposed.includes(name))).toEqual([]);
    expect(exposed).toEqual(expect.arrayContaining(["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "ratelimit", "ratelimit-policy", "retry-after", "etag", "link", "location", "deprecation", "sunset"]));
  });

  it("a 201 (Location), a deprecated getPet (Deprecation, Sunset, Link) and an event stream are readable too", async () => {
    const created = await server.api("/pets", { json: { name: "Tom", categoryId: 2 }, headers: { origin: APP } });
    expect(created.status).toBe(201);
    expect(corsHeaders(created)).toEqual(readable);
    const pet = await server.api("/pets/1", { headers: { origin: APP } });
    expect(pet.headers.get("deprecation")).not.toBeNull();
    expect(corsHeaders(pet)).toEqual(readable);
    const abort = new AbortController();
    const stream = await fetch(`${server.baseUrl}/events`, { headers: { origin: APP, authorization: `Bearer ${server.adminKey}` }, signal: abort.signal });
    expect(stream.status).toBe(200);
    expect(corsHeaders(stream)).toEqual(readable);
    abort.abort();
  });

  it("errors carry them as well: 401, 404, 405 and 429", async () => {
    const unauthorized = await server.api("/pets", { key: null, headers: { origin: APP } });
    expect(unauthorized.status).toBe(401);
    expect(corsHeaders(unauthorized)).toEqual(readable);
    const missing = await server.api("/pets/999", { headers: { origin: APP } });
    expect(missing.status).toBe(404);
    expect(corsHeaders(missing)).toEqual(readable);
    const wrongMethod = await server.api("/pets", { method: "PUT", headers: { origin: APP } });
    expect(wrongMethod.status).toBe(405);
    expect(corsHeaders(wrongMethod)).toEqual(readable);
    // The server runs on the wall clock: the counts compared here must fall in one minute.
    await clearOfWindowEnd(2_000);
    let last: Response | undefined;
    for (let i = 0; i < 5; i++) last = await server.api("/pets", { key, headers: { origin: APP } });
    expect(last?.status).toBe(429);
    expect(last?.headers.get("retry-after")).not.toBeNull();
    expect(corsHeaders(last!)).toEqual(readable);
  });
});

describe("another origin, or none", () => {
  it("another origin: no CORS header on the answer, only Vary: Origin", async () => {
    const response = await server.api("/pets", { headers: { origin: OTHER } });
    expect(response.status).toBe(200);
    expect(corsHeaders(response)).toEqual({ vary: "Origin" });
  });

  it("another origin's preflight is answered as without CORS: a request like any other (401 under /v1 without a key)", async () => {
    const response = await preflight("/pets", OTHER);
    expect(response.status).toBe(401);
    expect(corsHeaders(response)).toEqual({ vary: "Origin" });
    expect(response.headers.get("x-ratelimit-remaining")).not.toBeNull();
  });

  it("no Origin (curl, a server): untouched", async () => {
    const response = await server.api("/pets");
    expect(corsHeaders(response)).toEqual({});
  });
});

describe("off by default", () => {
  it("without --cors-origin an origin gets no CORS header, and a preflight is an ordinary 401", async () => {
    const plain = await startTestServer();
    try {
      const response = await plain.api("/pets", { headers: { origin: APP } });
      expect(response.status).toBe(200);
      expect(corsHeaders(response)).toEqual({});
      const options = await fetch(`${plain.baseUrl}/pets`, { method: "OPTIONS", headers: { origin: APP, "access-control-request-method": "GET" } });
      expect(options.status).toBe(401);
      expect(corsHeaders(options)).toEqual({});
    } finally {
      await plain.close();
    }
  });
});
