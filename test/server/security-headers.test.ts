// X-Content-Type-Options: nosniff on every answer; Cache-Control: no-store on every answer but a
// public document fetched without a key; conditional GETs still answer 304 with their ETag.
// First the app as a fetch function (every status it makes), then a real listener (the
// transport's own answers, the event stream).
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../../src/contract/limits.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { memoryApp } from "../helpers/memory-app.js";

const ADMIN = "ps_security_headers_admin_key_0123456";
const NO_STORE = "no-store";

interface Row {
  name: string;
  method?: string;
  path: string;
  key?: boolean;
  headers?: Record<string, string>;
  body?: string;
  status: number;
  cacheControl: string | null;
}

async function fetchApp() {
  // Anonymous callers get two requests a minute: the third is the 429 of the table.
  const { app } = await memoryApp({ adminKey: ADMIN, anonymousLimits: { perMinute: 2, perDay: 1000 } });
  return (row: Omit<Row, "status" | "cacheControl" | "name">) => {
    const headers = { ...(row.key === false ? {} : { authorization: `Bearer ${ADMIN}` }), ...row.headers };
    const url = row.path.startsWith("/v1") || row.path.startsWith("/healthz") || row.path.startsWith("/readyz") ? row.path : `/v1${row.path}`;
    return app.fetch(new Request(`http://petstore.test${url}`, { method: row.method ?? "GET", headers, body: row.body }));
  };
}

describe("over app.fetch: every status the app makes", () => {
  let call: Awaited<ReturnType<typeof fetchApp>>;
  let etag: string;
  let petId: number;
  beforeAll(async () => {
    call = await fetchApp();
    const created = await call({ method: "POST", path: "/pets", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "Rex", categoryId: 1 }) });
    petId = ((await created.json()) as { id: number }).id;
    etag = (await call({ path: `/pets/${petId}` })).headers.get("etag") ?? "";
  });

  const rows: Row[] = [
    { name: "200 list with a key", path: "/pets", status: 200, cacheControl: NO_STORE },
    { name: "201 create", method: "POST", path: "/pets", headers: { "content-type": "application/json" }, body: '{"name":"Tom","categoryId":1}', status: 201, cacheControl: NO_STORE },
    { name: "204 delete", method: "DELETE", path: "/pets/2", status: 204, cacheControl: NO_STORE },
    { name: "400 bad query", path: "/pets?limit=0", status: 400, cacheControl: NO_STORE },
    { name: "401 without a key", path: "/pets", key: false, status: 401, cacheControl: NO_STORE },
    { name: "404 unknown path", path: "/nothing-here", status: 404, cacheControl: NO_STORE },
    { name: "405 wrong method", method: "PUT", path: "/pets", status: 405, cacheControl: NO_STORE },
    {
      name: "413 body too large",
      method: "POST",
      path: "/pets",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "x".repeat(MAX_BODY_BYTES), categoryId: 1 }),
      status: 413,
      cacheControl: NO_STORE,
    },
    { name: "200 OpenAPI document without a key: public, left to default caching", path: "/openapi.json", key: false, status: 200, cacheControl: null },
    { name: "200 OpenAPI document with a key", path: "/openapi.json", status: 200, cacheControl: NO_STORE },
    { name: "200 /healthz: never cached", path: "/healthz", key: false, status: 200, cacheControl: NO_STORE },
    { name: "429 anonymous over its limit", path: "/openapi.json", key: false, status: 429, cacheControl: NO_STORE },
  ];

  it.each(rows)("$name: $status, nosniff, Cache-Control $cacheControl", async (row) => {
    const response = await call(row);
    expect(response.status).toBe(row.status);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe(row.cacheControl);
  });

  it("304 to If-None-Match: the ETag, nosniff and no-store, as the 200 had (RFC 9110 15.4.5)", async () => {
    const full = await call({ path: `/pets/${petId}` });
    expect(full.status).toBe(200);
    expect(full.headers.get("cache-control")).toBe(NO_STORE);
    const response = await call({ path: `/pets/${petId}`, headers: { "if-none-match": etag } });
    expect(response.status).toBe(304);
    expect(response.headers.get("etag")).toBe(etag);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe(NO_STORE);
    expect(await response.text()).toBe("");
  });

  it("a changed pet answers 200 with its new ETag, not 304", async () => {
    const patched = await call({ method: "PATCH", path: `/pets/${petId}`, headers: { "content-type": "application/merge-patch+json" }, body: '{"status":"sold"}' });
    expect(patched.status).toBe(200);
    const response = await call({ path: `/pets/${petId}`, headers: { "if-none-match": etag } });
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).not.toBe(etag);
    expect(response.headers.get("cache-control")).toBe(NO_STORE);
  });
});

describe("over a real listener", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("200 and 304 through the listener carry the same headers", async () => {
    const created = await server.api("/pets", { json: { name: "Rex", categoryId: 1 } });
    const { id } = (await created.json()) as { id: number };
    const first = await server.api(`/pets/${id}`);
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("cache-control")).toBe(NO_STORE);
    const again = await server.api(`/pets/${id}`, { headers: { "if-none-match": first.headers.get("etag") ?? "" } });
    expect(again.status).toBe(304);
    expect(again.headers.get("x-content-type-options")).toBe("nosniff");
    expect(again.headers.get("cache-control")).toBe(NO_STORE);
  });

  it("413 for a declared body over the limit", async () => {
    const answer = await raw(server, `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.adminKey}\r\nContent-Type: application/json\r\nContent-Length: ${MAX_BODY_BYTES + 1}\r\n\r\n`);
    expect(answer.status).toBe(413);
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    expect(answer.headers["cache-control"]).toBe(NO_STORE);
  });

  it.each([
    ["431 headers too large (Node's parser)", `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(64 * 1024)}\r\n\r\n`, 431],
    ["400 not HTTP (Node's parser)", "NOT HTTP AT ALL\r\n\r\n", 400],
    ["400 HTTP/1.1 without Host", "GET /v1/pets HTTP/1.1\r\n\r\n", 400],
  ])("%s: the transport's own answer carries them too", async (_name, request, status) => {
    const answer = await raw(server, request);
    expect(answer.status).toBe(status);
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    expect(answer.headers["cache-control"]).toBe(NO_STORE);
  });

  it("the event stream: nosniff, and its own no-store, no-transform (no proxy may buffer or keep it)", async () => {
    const abort = new AbortController();
    const response = await fetch(`${server.baseUrl}/events`, { headers: { authorization: `Bearer ${server.adminKey}` }, signal: abort.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe("no-store, no-transform");
    abort.abort();
  });
});

/** One request written as raw bytes (what fetch would refuse to send); the answer's status and headers. */
function raw(server: TestServer, text: string): Promise<{ status: number; headers: Record<string, string> }> {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let received = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      received += chunk;
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return;
      socket.destroy();
      const [statusLine = "", ...lines] = received.slice(0, end).split("\r\n");
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
      resolve({ status: Number(statusLine.split(" ")[1]), headers });
    });
    socket.on("error", reject);
  });
}
