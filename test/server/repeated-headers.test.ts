// Request headers sent more than once, over a real socket: node parses them itself and petstore
// reads some of them from node directly (src/server/internal/request-header.ts). Each answer must
// be what the same headers give through app.fetch, where a Request joins repeats with ", ".
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await server.api("/pets", { json: { name: "Rex", categoryId: 1 } });
});
afterAll(() => server.close());

/** GET with raw header lines (repeats kept, in order), over a socket. */
function rawGet(path: string, lines: Array<[string, string]>): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    // As a raw list node sends as given: without its own Host, so it is one of the lines.
    const headers = [["host", new URL(server.baseUrl).host], ["authorization", `Bearer ${server.adminKey}`], ...lines].flat();
    const req = request(`${server.baseUrl}${path}`, { method: "GET", headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("repeated request headers", () => {
  it("If-None-Match sent twice is one list: the held ETag in either line gets 304", async () => {
    const etag = (await server.api("/pets")).headers.get("etag")!;
    expect((await rawGet("/pets", [["if-none-match", '"other"'], ["if-none-match", etag]])).status).toBe(304);
    expect((await rawGet("/pets", [["if-none-match", etag], ["if-none-match", '"other"']])).status).toBe(304);
    expect((await rawGet("/pets", [["if-none-match", '"a"'], ["if-none-match", '"b"']])).status).toBe(200);
  });

  it("Accept sent twice is one list: JSON in either line is acceptable, neither is 406", async () => {
    expect((await rawGet("/pets", [["accept", "text/html"], ["accept", "application/json"]])).status).toBe(200);
    expect((await rawGet("/pets", [["accept", "text/html"], ["accept", "image/png"]])).status).toBe(406);
  });

  it("X-Request-Id sent twice is not taken as one id (the joined value has a space): a new one is made", async () => {
    const once = await rawGet("/pets", [["x-request-id", "abc-123"]]);
    expect(once.headers["x-request-id"]).toBe("abc-123");
    const twice = await rawGet("/pets", [["x-request-id", "abc-123"], ["x-request-id", "def-456"]]);
    expect(twice.headers["x-request-id"]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("Accept-Encoding sent twice is one list: gzip in either line compresses a large page", async () => {
    for (let i = 0; i < 30; i++) await server.api("/pets", { json: { name: `Pet number ${i} with a long name`, categoryId: 2 } });
    const answer = await rawGet("/pets?limit=100", [["accept-encoding", "identity"], ["accept-encoding", "gzip"]]);
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("gzip");
  });
});
