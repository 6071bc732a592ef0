// What a prober found the server too lenient about in HTTP itself, each case as RFC 9110/9112 or
// the README says it must go: Host, the request line's version, Expect: 100-continue, encoded and
// mislabelled bodies, If-None-Match on a change, the origin of links, and idempotency fingerprints.
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, json } from "../helpers/assertions.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";
import { expectErrorAnswer } from "./http-answers.js";
import { open, readAnswer, requestHead, sendRaw } from "./http-raw.js";

const PUBLIC_URL = "https://pets.example.com/api";
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ publicUrl: PUBLIC_URL });
});
afterAll(() => server?.close());

const auth = () => `Authorization: Bearer ${server.adminKey}`;
const PET = JSON.stringify({ name: "Rex", categoryId: 1 });

describe("the request head", () => {
  it.each([
    ["two Host headers", "GET /v1/pets HTTP/1.1\r\nHost: a.example\r\nHost: b.example"],
    ["two Host headers in other cases", "GET /v1/pets HTTP/1.1\r\nhost: a.example\r\nHOST: a.example"],
    ["HTTP/2.0 in the request line", "GET /v1/pets HTTP/2.0\r\nHost: a.example"],
    ["no version in the request line", "GET /v1/pets"],
    ["HTTP/0.9 in the request line", "GET /v1/pets HTTP/0.9"],
  ])("%s: 400 malformed_request, and the connection is closed (one Host, or HTTP/1.0 without one, is served)", async (_, head) => {
    const answer = await sendRaw(server.origin, `${head}\r\n${auth()}\r\n\r\n`);
    expectErrorAnswer(answer!.status, answer!.headers["content-type"], answer!.body, { status: 400, code: "malformed_request" });
    expect(answer!.headers.connection).toBe("close");
    expect((await sendRaw(server.origin, requestHead("GET /v1/pets HTTP/1.1", [auth(), "Connection: close"])))!.status).toBe(200);
    expect((await sendRaw(server.origin, `GET /v1/pets HTTP/1.0\r\n${auth()}\r\n\r\n`))!.status).toBe(200);
  });
});

describe("Expect: 100-continue", () => {
  /** The first answer on the connection, before any body is sent. */
  async function firstAnswer(headers: string[]): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const socket = await open(server.origin);
    try {
      const answer = readAnswer(socket);
      socket.write(requestHead("POST /v1/pets HTTP/1.1", ["Content-Type: application/json", "Expect: 100-continue", ...headers]));
      return (await answer)!;
    } finally {
      socket.destroy();
    }
  }

  it("a 10 MB Content-Length is answered 413 at once, not 100 Continue; an acceptable one gets 100, then its answer", async () => {
    const answer = await firstAnswer([auth(), "Content-Length: 10000000"]);
    expectErrorAnswer(answer.status, answer.headers["content-type"], answer.body, { status: 413, code: "payload_too_large" });
    expect(answer.headers.connection).toBe("close");
    const socket = await open(server.origin);
    try {
      const continued = readAnswer(socket, { head: true });
      socket.write(requestHead("POST /v1/pets HTTP/1.1", [auth(), "Content-Type: application/json", `Content-Length: ${PET.length}`, "Expect: 100-continue"]));
      expect((await continued)!.status).toBe(100);
      const created = readAnswer(socket);
      socket.write(PET);
      expect((await created)!.status).toBe(201);
    } finally {
      socket.destroy();
    }
  });

  it("without a valid key it is answered 401 at once, not 100 Continue, and the connection is closed", async () => {
    const answer = await firstAnswer(["Authorization: Bearer ps_not_a_key_at_all_0123456789", `Content-Length: ${PET.length}`]);
    expectErrorAnswer(answer.status, answer.headers["content-type"], answer.body, { status: 401, code: "unauthorized" });
    expect(answer.headers.connection).toBe("close");
  });
});

describe("request bodies", () => {
  const post = (body: string | Uint8Array, headers: Record<string, string>) => server.api("/pets", { body, headers: { "content-type": "application/json", ...headers } });

  it("a gzip-encoded body: 415 unsupported_media_type naming Content-Encoding, with Accept-Encoding: identity", async () => {
    const response = await post(gzipSync(PET), { "content-encoding": "gzip" });
    expect(response.headers.get("accept-encoding")).toBe("identity");
    expect(await expectError(response, 415, "unsupported_media_type")).toBe(
      'Content-Encoding "gzip" is not accepted: send the body uncompressed, without Content-Encoding',
    );
  });

  it("a plain body labelled Content-Encoding: br is refused too, and nothing is created; identity and charset=UTF-8 are served", async () => {
    const before = (await json(await server.api("/pets?limit=100"))).length;
    expect(await expectError(await post(PET, { "content-encoding": "br" }), 415, "unsupported_media_type")).toMatch(/^Content-Encoding "br" is not accepted/);
    expect((await json(await server.api("/pets?limit=100"))).length).toBe(before);
    expect((await post(PET, { "content-type": "application/json; charset=UTF-8" })).status).toBe(201);
    expect((await post(PET, { "content-encoding": "identity" })).status).toBe(201);
  });

  it.each(["utf-16", "latin1", "ISO-8859-1", '"utf-16le"'])("charset=%s: 415 unsupported_media_type", async (charset) => {
    const message = await expectError(await post(PET, { "content-type": `application/json; charset=${charset}` }), 415, "unsupported_media_type");
    expect(message).toBe(`the body must be UTF-8: charset "${charset.replaceAll('"', "").toLowerCase()}" is not accepted`);
  });
});

describe("If-None-Match on a change (RFC 9110 13.1.2)", () => {
  const patch = (id: number, headers: Record<string, string>) =>
    server.api(`/pets/${id}`, { method: "PATCH", json: { name: "Changed" }, headers: { "content-type": "application/merge-patch+json", ...headers } });

  it("If-None-Match: * on PATCH of a pet that exists: 412, nothing changed; of one that does not: 404", async () => {
    const pet = await json(await server.api("/pets", { json: { name: "Kept", categoryId: 2 } }));
    expect(await expectError(await patch(pet.id, { "if-none-match": "*" }), 412, "precondition_failed")).toBe(
      `pet ${pet.id} exists (If-None-Match: *): nothing was changed`,
    );
    expect(await json(await server.api(`/pets/${pet.id}`))).toEqual(pet);
    await expectError(await patch(999_999, { "if-none-match": "*" }), 404, "not_found");
  });

  it("If-None-Match naming the current ETag: 412; naming an old one: the change is made", async () => {
    const created = await server.api("/pets", { json: { name: "Tagged", categoryId: 2 } });
    const pet = await json(created);
    const etag = created.headers.get("etag")!;
    await expectError(await patch(pet.id, { "if-none-match": etag }), 412, "precondition_failed");
    expect((await patch(pet.id, { "if-none-match": '"pet-1-999"' })).status).toBe(200);
  });

  it("If-None-Match: * on DELETE of a pet that exists: 412, the pet stays", async () => {
    const pet = await json(await server.api("/pets", { json: { name: "Stays", categoryId: 2 } }));
    await expectError(await server.api(`/pets/${pet.id}`, { method: "DELETE", headers: { "if-none-match": "*" } }), 412, "precondition_failed");
    expect((await server.api(`/pets/${pet.id}`)).status).toBe(200);
  });
});

describe("links", () => {
  async function nextLink(requestLine: string, host: string): Promise<string | undefined> {
    const answer = await sendRaw(server.origin, requestHead(requestLine, [auth(), "Connection: close"], host));
    expect(answer!.status).toBe(200);
    return answer!.headers.link;
  }

  it("with --public-url, Link is built from it, whatever Host or absolute-form target the request names; without, from the Host", async () => {
    for (let i = 0; i < 2; i++) await server.api("/pets", { json: { name: `Linked ${i}`, categoryId: 3 } });
    for (const [line, host] of [["GET /v1/pets?limit=1 HTTP/1.1", "evil.example"], ["GET http://evil.example/v1/pets?limit=1 HTTP/1.1", "petstore.test"]]) {
      expect(await nextLink(line!, host!)).toMatch(new RegExp(`^<${PUBLIC_URL}/v1/pets\\?limit=1&cursor=[\\w-]+>; rel="next"$`));
    }
    const plain = await startTestServer();
    try {
      for (let i = 0; i < 2; i++) await plain.api("/pets", { json: { name: `Linked ${i}`, categoryId: 3 } });
      const answer = await sendRaw(plain.origin, requestHead("GET /v1/pets?limit=1 HTTP/1.1", [`Authorization: Bearer ${plain.adminKey}`, "Connection: close"], "api.example.net"));
      expect(answer!.headers.link).toMatch(/^<http:\/\/api\.example\.net\/v1\/pets\?limit=1&cursor=[\w-]+>; rel="next"$/);
    } finally {
      await plain.close();
    }
  });
});

describe("idempotency fingerprints", () => {
  const create = (path: string, idempotencyKey: string) => server.api(path, { json: { name: "Once", categoryId: 4 }, headers: { "idempotency-key": idempotencyKey } });

  it("count the normalised path: a retry to /v1/pets/ with the same key and body is the same request", async () => {
    const first = await create("/pets", "fingerprint-slash");
    expect(first.status).toBe(201);
    const retry = await create("/pets/", "fingerprint-slash");
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await json(retry)).toEqual(await json(first));
  });

  it("count the query: the same key and body with another query string is not answered with the first answer", async () => {
    const first = await create("/pets", "fingerprint-query");
    expect(first.status).toBe(201);
    const other = await create("/pets?status=sold", "fingerprint-query");
    expect(other.status).toBeGreaterThanOrEqual(400);
    expect(other.headers.get("idempotent-replayed")).toBeNull();
  });
});
