// The reason phrase on the status line: srvx would send `HTTP/1.1 201 ` with an empty one.
import { request } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createKey, startTestServer, type TestServer } from "../helpers/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

function statusLine(method: string, path: string, body?: string, key: string | null = server.adminKey): Promise<string> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    const url = path.startsWith("/healthz") ? `${server.origin}${path}` : `${server.baseUrl}${path}`;
    const req = request(url, { method, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(`${res.statusCode} ${res.statusMessage}`));
    });
    req.on("error", reject);
    req.end(body);
  });
}

it.each([
  ["GET", "/pets", undefined, "200 OK"],
  ["HEAD", "/pets", undefined, "200 OK"],
  ["POST", "/pets", '{"name":"Rex","categoryId":1}', "201 Created"],
  ["GET", "/nowhere", undefined, "404 Not Found"],
  ["PUT", "/pets", undefined, "405 Method Not Allowed"],
  ["POST", "/pets", "{", "400 Bad Request"],
])("%s %s (body %s) answers %s", async (method, path, body, expected) => {
  expect(await statusLine(method, path, body)).toBe(expected);
});

it.each([
  ["GET /healthz, outside the guard", "GET", "/healthz", null, "200 OK"],
  ["the document, a text body h3 sends itself", "GET", "/openapi.json", null, "200 OK"],
  ["a refusal the guard writes", "GET", "/pets", null, "401 Unauthorized"],
  ["POST /healthz", "POST", "/healthz", null, "405 Method Not Allowed"],
])("%s: %s %s answers %s", async (_label, method, path, key, expected) => {
  expect(await statusLine(method, path, undefined, key)).toBe(expected);
});

it("a key without admin rights gets 403 Forbidden", async () => {
  const { key } = await createKey(server, { plan: "free" });
  expect(await statusLine("GET", "/keys", undefined, key)).toBe("403 Forbidden");
});

it("a 204 without a body has its reason phrase too", async () => {
  const { id } = await createKey(server, { plan: "free" });
  expect(await statusLine("DELETE", `/keys/${id}`)).toBe("204 No Content");
});
