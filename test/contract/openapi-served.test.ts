// The document where integrators get it: GET /v1/openapi.json (no key) and `petstore openapi`.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../src/contract/openapi.js";
import { expectError, expectRateLimitHeaders, json } from "../helpers/assertions.js";
import { BIN } from "../helpers/serve-process.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

const run = promisify(execFile);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("GET /v1/openapi.json", () => {
  it("serves the document without a key, as JSON, with the rate-limit headers", async () => {
    const response = await server.api("/openapi.json", { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expectRateLimitHeaders(response);
    expect(await json(response)).toEqual(buildOpenApiDocument());
  });

  it("ignores a bad key rather than refusing the document", async () => {
    const response = await server.api("/openapi.json", { key: "ps_not_a_key" });
    expect(response.status).toBe(200);
  });

  it("answers HEAD like GET, and another method with 405 (no key needed to learn that)", async () => {
    const head = await server.api("/openapi.json", { method: "HEAD", key: null });
    expect(head.status).toBe(200);
    const post = await server.api("/openapi.json", { method: "POST", key: null, json: {} });
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    await expectError(post, 405, "method_not_allowed");
  });
});

describe("petstore openapi", () => {
  it("prints the same document as pretty JSON on stdout, exit 0", async () => {
    const { stdout, stderr } = await run(process.execPath, [BIN, "openapi"], { env: { ...process.env, NO_COLOR: "1" } });
    expect(stderr).toBe("");
    expect(stdout).toBe(`${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
  });
});
