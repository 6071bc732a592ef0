// Compression as it goes over the wire: node:http, which never decompresses, so the test sees the
// very bytes, Content-Length and Content-Encoding the server sent.
import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseCoding, COMPRESS_MIN_BYTES } from "../../src/server/internal/compression.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

let server: TestServer;
let plain: RawAnswer;
beforeAll(async () => {
  server = await startTestServer();
  for (let batch = 0; batch < 5; batch++) {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => server.api("/pets", { json: { name: `Pet number ${batch * 20 + i + 1}`, categoryId: 3 } })),
    );
  }
  plain = await raw("GET", "/pets?limit=100", {});
});
afterAll(() => server.close());

function raw(method: string, path: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${server.baseUrl}${path}`);
    const sent = request(url, { method, headers: { authorization: `Bearer ${server.adminKey}`, ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    sent.on("error", reject);
    sent.end();
  });
}

describe("chooseCoding(Accept-Encoding)", () => {
  it.each([
    [null, undefined],
    ["", undefined],
    ["identity", undefined],
    ["gzip", "gzip"],
    ["x-gzip", "gzip"],
    ["br", "br"],
    ["gzip, deflate, br", "br"],
    ["gzip;q=1, br;q=0.5", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["*", "br"],
    ["*;q=0", undefined],
    ["gzip;q=0, br;q=0", undefined],
    ["deflate", undefined],
  ] as const)("%j: %s", (header, coding) => {
    expect(chooseCoding(header)).toBe(coding);
  });
});

describe("a listing of 100 pets", () => {
  it("goes uncompressed without Accept-Encoding, and without Vary", () => {
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toBeUndefined();
    expect(Number(plain.headers["content-length"])).toBe(plain.body.length);
    expect(plain.body.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
    expect(plain.headers.etag).toMatch(/^"page-[\w-]{32}"$/);
  });

  it.each([
    ["gzip", "gzip", gunzipSync],
    ["gzip, deflate, br", "br", brotliDecompressSync],
    ["br;q=0.5, gzip", "gzip", gunzipSync],
  ] as const)("Accept-Encoding: %s is compressed as %s, with its own ETag, Vary and the compressed length", async (accept, coding, inflate) => {
    const answer = await raw("GET", "/pets?limit=100", { "accept-encoding": accept });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe(coding);
    expect(answer.headers.vary).toBe("Accept-Encoding");
    expect(answer.headers.etag).toBe(`${plain.headers.etag!.toString().slice(0, -1)}-${coding}"`);
    expect(Number(answer.headers["content-length"])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(plain.body.length / 4);
    expect(inflate(answer.body).equals(plain.body)).toBe(true);
  });

  it("answers HEAD with the headers of the GET and no body", async () => {
    const get = await raw("GET", "/pets?limit=100", { "accept-encoding": "gzip" });
    const head = await raw("HEAD", "/pets?limit=100", { "accept-encoding": "gzip" });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of ["content-encoding", "content-length", "etag", "vary", "content-type"]) expect(head.headers[name], name).toBe(get.headers[name]);
  });

  it("answers 304 to the compressed variant's ETag, and to the plain one, with the tag the client holds", async () => {
    const coded = `${plain.headers.etag!.toString().slice(0, -1)}-gzip"`;
    for (const held of [coded, plain.headers.etag!.toString()]) {
      const answer = await raw("GET", "/pets?limit=100", { "accept-encoding": "gzip", "if-none-match": held });
      expect(answer.status).toBe(304);
      expect(answer.body.length).toBe(0);
      expect(answer.headers.etag).toBe(held);
      expect(answer.headers.vary).toBe("Accept-Encoding");
    }
  });

  it("compresses the page as it is now once a pet changes: a new ETag and the new name", async () => {
    const before = await raw("GET", "/pets?limit=100", { "accept-encoding": "br" });
    const patched = await server.api("/pets/1", { method: "PATCH", json: { name: "Renamed" } });
    expect(patched.status).toBe(200);
    const after = await raw("GET", "/pets?limit=100", { "accept-encoding": "br" });
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const pets = JSON.parse(brotliDecompressSync(after.body).toString("utf8")) as Array<{ id: number; name: string }>;
    expect(pets[0]).toMatchObject({ id: 1, name: "Renamed" });
  });

  it("leaves a page under the threshold as it is, with Vary all the same", async () => {
    const answer = await raw("GET", "/pets?limit=2", { "accept-encoding": "gzip" });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(answer.headers.vary).toBe("Accept-Encoding");
    expect(answer.body.length).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(answer.headers.etag).toMatch(/^"page-[\w-]{32}"$/);
  });

  it("never compresses an error", async () => {
    const answer = await raw("GET", `/pets?limit=100&cursor=${"A".repeat(40)}`, { "accept-encoding": "gzip" });
    expect(answer.status).toBe(400);
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(answer.body.toString("utf8"))).toMatchObject({ code: "invalid_parameter", status: 400 });
  });
});

describe("GET /v1/openapi.json", () => {
  it("comes compressed to a client that accepts it: the same document, a fraction of the bytes", async () => {
    const whole = await raw("GET", "/openapi.json", {});
    expect(whole.headers["content-encoding"]).toBeUndefined();
    for (const [accept, coding, inflate] of [["br, gzip", "br", brotliDecompressSync], ["gzip", "gzip", gunzipSync]] as const) {
      const answer = await raw("GET", "/openapi.json", { "accept-encoding": accept });
      expect(answer.status).toBe(200);
      expect(answer.headers["content-encoding"]).toBe(coding);
      expect(answer.headers.vary).toBe("Accept-Encoding");
      expect(answer.headers["content-type"]).toBe("application/json;charset=UTF-8");
      expect(Number(answer.headers["content-length"])).toBe(answer.body.length);
      expect(answer.body.length).toBeLessThan(whole.body.length / 8);
      expect(inflate(answer.body).equals(whole.body)).toBe(true);
    }
  });
});

