import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, expectError, expectRateLimitHeaders } from "../helpers/assertions.js";
import { openSse } from "../helpers/sse-client.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const createPet = (json: unknown) => server.api("/pets", { json });

describe("GET /healthz", () => {
  it("answers 200 {status: ok} without a key and without rate-limit headers", async () => {
    const response = await server.api(`${server.origin}/healthz`, { key: null });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ status: "ok" });
    expect(response.headers.get("x-ratelimit-limit")).toBeNull();
  });
});

describe("POST /v1/pets", () => {
  it("creates a pet: 201, the Pet with its id, Location, status available by default", async () => {
    const response = await createPet({ name: "Rex", categoryId: 3 });
    expect(response.status).toBe(201);
    const pet = await json(response);
    expect(pet).toEqual({ id: pet.id, name: "Rex", categoryId: 3, status: "available" });
    expect(response.headers.get("location")).toBe(`/v1/pets/${pet.id}`);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expectRateLimitHeaders(response);
  });

  it("gives increasing ids and keeps the status it is sent", async () => {
    const a = await json(await createPet({ name: "A", categoryId: 1, status: "sold" }));
    const b = await json(await createPet({ name: "B", categoryId: 1, status: "pending" }));
    expect(a.status).toBe("sold");
    expect(b.id).toBe(a.id + 1);
  });

  const big = "x".repeat(64 * 1024);
  it.each([
    ["no Content-Type", { body: '{"name":"a","categoryId":1}' }, 415, "unsupported_media_type"],
    ["text/plain", { body: "{}", headers: { "content-type": "text/plain" } }, 415, "unsupported_media_type"],
    ["malformed JSON", { body: '{"name":', headers: { "content-type": "application/json" } }, 400, "invalid_json"],
    ["an empty body", { body: "", headers: { "content-type": "application/json" } }, 400, "invalid_json"],
    ["a body over 64 KiB", { body: JSON.stringify({ name: big, categoryId: 1 }), headers: { "content-type": "application/json" } }, 413, "payload_too_large"],
  ])("%s: %i %s", async (_label, init, status, code) => {
    await expectError(await server.api("/pets", { method: "POST", ...init }), status, code);
  });

  it("refuses invalid UTF-8 as invalid_json", async () => {
    const body = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('","categoryId":1}')]);
    const response = await server.api("/pets", { method: "POST", headers: { "content-type": "application/json" }, body });
    await expectError(response, 400, "invalid_json");
  });

  it.each([
    [{ categoryId: 1 }, /name: is required/],
    [{ name: "", categoryId: 1 }, /name: must not be empty/],
    [{ name: "x".repeat(201), categoryId: 1 }, /name: must be at most 200 characters/],
    [{ name: 7, categoryId: 1 }, /name: must be a string/],
    [{ name: "a" }, /categoryId: is required/],
    [{ name: "a", categoryId: 0 }, /categoryId: must be at least 1/],
    [{ name: "a", categoryId: 1.5 }, /categoryId: must be an integer/],
    [{ name: "a", categoryId: "1" }, /categoryId: must be an integer/],
    [{ name: "a", categoryId: 2 ** 53 }, /categoryId: must be an integer/],
    [{ name: "a", categoryId: 1, status: "lost" }, /status: must be one of available, pending, sold/],
    [{ id: 9, name: "a", categoryId: 1 }, /unknown field "id"/],
    [{ name: "a", categoryId: 1, colour: "red" }, /unknown field "colour"/],
    [[{ name: "a", categoryId: 1 }], /the body must be a JSON object/],
    [null, /the body must be a JSON object/],
  ])("refuses %j with 400 invalid_body naming the field", async (json, message) => {
    expect(await expectError(await createPet(json), 400, "invalid_body")).toMatch(message);
  });

  it("changes nothing when it refuses", async () => {
    const before = await json(await server.api("/pets?limit=100"));
    await createPet({ name: "", categoryId: 1 });
    expect(await json(await server.api("/pets?limit=100"))).toEqual(before);
  });
});

describe("GET /v1/pets/{petId} (deprecated)", () => {
  it("returns the pet with Deprecation, Sunset and the successor Link", async () => {
    const created = await json(await createPet({ name: "Kit", categoryId: 2 }));
    const response = await server.api(`/pets/${created.id}`);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual(created);
    expectDeprecation(response);
    expectRateLimitHeaders(response);
  });

  it("answers 404 not_found, still deprecated", async () => {
    const response = await server.api("/pets/999999");
    expectDeprecation(response);
    await expectError(response, 404, "not_found");
  });

  it.each(["0", "-1", "abc", "1.5", "1e3", "99999999999999999999", "%zz"])("refuses petId %s with 400 invalid_parameter", async (id) => {
    const response = await server.api(`/pets/${id}`);
    expectDeprecation(response);
    expect(await expectError(response, 400, "invalid_parameter")).toMatch(/petId/);
  });

  it("carries the deprecation headers on a 401 too", async () => {
    const response = await server.api("/pets/1", { key: null });
    expectDeprecation(response);
    await expectError(response, 401, "unauthorized");
  });
});

describe("PATCH /v1/pets/{petId}", () => {
  const patch = (id: number, body: unknown, contentType = "application/merge-patch+json", headers: Record<string, string> = {}) =>
    server.api(`/pets/${id}`, { method: "PATCH", headers: { "content-type": contentType, ...headers }, body: JSON.stringify(body) });

  it("changes only the fields sent and answers 200 with the whole pet, without deprecation marks", async () => {
    const pet = await json(await createPet({ name: "Tom", categoryId: 4 }));
    const response = await patch(pet.id, { status: "sold" });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ id: pet.id, name: "Tom", categoryId: 4, status: "sold" });
    expect(response.headers.get("deprecation")).toBeNull();
    expect(response.headers.get("sunset")).toBeNull();
    expectRateLimitHeaders(response);
    const again = await patch(pet.id, { name: "Tim", categoryId: 5, status: "available" }, "application/json; charset=utf-8");
    expect(await json(again)).toEqual({ id: pet.id, name: "Tim", categoryId: 5, status: "available" });
    expect(await json(await server.api(`/pets/${pet.id}`))).toEqual({ id: pet.id, name: "Tim", categoryId: 5, status: "available" });
  });

  it("moves the pet between status listings at once", async () => {
    const pet = await json(await createPet({ name: "Ida", categoryId: 77 }));
    await patch(pet.id, { status: "sold" });
    expect(await json(await server.api("/pets?categoryId=77&status=sold"))).toEqual([{ ...pet, status: "sold" }]);
    expect(await json(await server.api("/pets?categoryId=77&status=available"))).toEqual([]);
  });

  it.each([
    [{}, /^invalid body: nothing to update: send at least one of name, categoryId, status$/],
    [{ id: 5 }, /unknown field "id" \(the service assigns it\)/],
    [{ name: "a", colour: "red" }, /unknown field "colour"/],
    [{ name: null }, /^invalid body: name: cannot be null/],
    [{ categoryId: null }, /^invalid body: categoryId: cannot be null/],
    [{ status: null }, /^invalid body: status: cannot be null/],
    [{ name: "" }, /name: must not be empty/],
    [{ categoryId: 0 }, /categoryId: must be at least 1/],
    [{ status: "lost" }, /status: must be one of available, pending, sold/],
    [["name"], /the body must be a JSON object/],
    ["Rex", /the body must be a JSON object/],
  ])("refuses %j with 400 invalid_body and changes nothing", async (body, message) => {
    const pet = await json(await createPet({ name: "Zed", categoryId: 1 }));
    expect(await expectError(await patch(pet.id, body), 400, "invalid_body")).toMatch(message);
    expect(await json(await server.api(`/pets/${pet.id}`))).toEqual(pet);
  });

  it("answers a patch that changes nothing with 200, the pet as it is, the same ETag and no event", async () => {
    const pet = await json(await createPet({ name: "Same", categoryId: 1, status: "sold" }));
    const updates = await openSse(`${server.baseUrl}/events?types=pet.updated`, server.adminKey);
    for (let i = 0; i < 100 && updates.retry() === undefined; i++) await new Promise((r) => setTimeout(r, 10));
    for (const body of [{ status: "sold" }, { name: "Same", categoryId: 1, status: "sold" }]) {
      const response = await patch(pet.id, body);
      expect(response.status).toBe(200);
      expect(await json(response)).toEqual(pet);
      expect(response.headers.get("etag")).toBe(`"pet-${pet.id}-1"`);
    }
    expect((await server.api(`/pets/${pet.id}`)).headers.get("etag")).toBe(`"pet-${pet.id}-1"`);
    // The first pet.updated the stream sees is the real change that follows, not the repeats.
    await patch(pet.id, { name: "Other" });
    const [event] = await updates.events(1);
    expect(event!.data).toEqual({ ...pet, name: "Other" });
    updates.close();
  });

  it("still checks If-Match on a patch that changes nothing: stale 412, current 200", async () => {
    const pet = await json(await createPet({ name: "Kept", categoryId: 1 }));
    await patch(pet.id, { name: "Kept2" });
    const stale = await patch(pet.id, { name: "Kept2" }, "application/merge-patch+json", { "if-match": `"pet-${pet.id}-1"` });
    expect(await expectError(stale, 412, "precondition_failed")).toMatch(/has changed since the ETag in If-Match/);
    const current = await patch(pet.id, { name: "Kept2" }, "application/merge-patch+json", { "if-match": `"pet-${pet.id}-2"` });
    expect(current.status).toBe(200);
    expect(current.headers.get("etag")).toBe(`"pet-${pet.id}-2"`);
  });

  it("answers 404 for an unknown pet, 400 for a bad id, 415 for another media type", async () => {
    expect(await expectError(await patch(999999, { name: "x" }), 404, "not_found")).toBe("no pet with id 999999");
    expect(await expectError(await patch(0, { name: "x" }), 400, "invalid_parameter")).toMatch(/^petId/);
    const message = await expectError(await patch(1, { name: "x" }, "text/plain"), 415, "unsupported_media_type");
    expect(message).toBe('Content-Type must be application/merge-patch+json or application/json, got "text/plain"');
  });
});

describe("DELETE /v1/pets/{petId}", () => {
  it("answers 204, then the pet is gone from get and listings; a second delete is 404; its id is not reused", async () => {
    const pet = await json(await createPet({ name: "Gone", categoryId: 88 }));
    const response = await server.api(`/pets/${pet.id}`, { method: "DELETE" });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect(response.headers.get("deprecation")).toBeNull();
    expectRateLimitHeaders(response);
    await expectError(await server.api(`/pets/${pet.id}`), 404, "not_found");
    expect(await json(await server.api("/pets?categoryId=88"))).toEqual([]);
    await expectError(await server.api(`/pets/${pet.id}`, { method: "DELETE" }), 404, "not_found");
    await expectError(await server.api(`/pets/${pet.id}`, { method: "PATCH", json: { name: "back" } }), 404, "not_found");
    expect((await json(await createPet({ name: "Next", categoryId: 88 }))).id).toBe(pet.id + 1);
  });

  it("answers 400 for a bad id", async () => {
    expect(await expectError(await server.api("/pets/abc", { method: "DELETE" }), 400, "invalid_parameter")).toMatch(/^petId/);
  });
});

describe("conditional requests", () => {
  const patch = (id: number, body: unknown, headers: Record<string, string> = {}) =>
    server.api(`/pets/${id}`, { method: "PATCH", json: body, headers: { "content-type": "application/merge-patch+json", ...headers } });

  it("gives createPet, getPet and PATCH a strong ETag that changes with every update", async () => {
    const created = await createPet({ name: "Tag", categoryId: 1 });
    const pet = await json(created);
    expect(created.headers.get("etag")).toBe(`"pet-${pet.id}-1"`);
    expect((await server.api(`/pets/${pet.id}`)).headers.get("etag")).toBe(`"pet-${pet.id}-1"`);
    const patched = await patch(pet.id, { name: "Tag2" });
    expect(patched.headers.get("etag")).toBe(`"pet-${pet.id}-2"`);
    await patch(pet.id, { name: "Tag" });
    expect((await server.api(`/pets/${pet.id}`)).headers.get("etag")).toBe(`"pet-${pet.id}-3"`);
  });

  it("answers getPet's If-None-Match with 304, no body, its ETag, the rate-limit and deprecation headers", async () => {
    const pet = await json(await createPet({ name: "Cache", categoryId: 1 }));
    const etag = `"pet-${pet.id}-1"`;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const response = await server.api(`/pets/${pet.id}`, { headers: { "if-none-match": header } });
      expect(response.status).toBe(304);
      expect(await response.text()).toBe("");
      expect(response.headers.get("etag")).toBe(etag);
      expectRateLimitHeaders(response);
      expectDeprecation(response);
    }
    await patch(pet.id, { status: "sold" });
    const changed = await server.api(`/pets/${pet.id}`, { headers: { "if-none-match": etag } });
    expect(changed.status).toBe(200);
    expect(await json(changed)).toEqual({ ...pet, status: "sold" });
  });

  it("refuses PATCH and DELETE with 412 precondition_failed when If-Match is not current, changing nothing", async () => {
    const pet = await json(await createPet({ name: "Both", categoryId: 1 }));
    await patch(pet.id, { name: "First" });
    const stale = `"pet-${pet.id}-1"`;
    for (const ifMatch of [stale, `W/"pet-${pet.id}-2"`, `"pet-${pet.id + 1}-2"`, '"garbage"']) {
      const message = await expectError(await patch(pet.id, { name: "Second" }, { "if-match": ifMatch }), 412, "precondition_failed");
      expect(message).toBe(`pet ${pet.id} has changed since the ETag in If-Match: nothing was changed; read it again`);
      await expectError(await server.api(`/pets/${pet.id}`, { method: "DELETE", headers: { "if-match": ifMatch } }), 412, "precondition_failed");
    }
    expect(await json(await server.api(`/pets/${pet.id}`))).toEqual({ ...pet, name: "First" });
    const current = `"pet-${pet.id}-2"`;
    const updated = await patch(pet.id, { name: "Second" }, { "if-match": `${stale}, ${current}` });
    expect(updated.status).toBe(200);
    expect(updated.headers.get("etag")).toBe(`"pet-${pet.id}-3"`);
    const deleted = await server.api(`/pets/${pet.id}`, { method: "DELETE", headers: { "if-match": "*" } });
    expect(deleted.status).toBe(204);
    await expectError(await server.api(`/pets/${pet.id}`, { method: "DELETE", headers: { "if-match": "*" } }), 404, "not_found");
  });

  it("of two editors holding the same ETag, the second gets 412", async () => {
    const pet = await json(await createPet({ name: "Race", categoryId: 1 }));
    const etag = `"pet-${pet.id}-1"`;
    const answers = await Promise.all([
      patch(pet.id, { name: "Alice" }, { "if-match": etag }),
      patch(pet.id, { name: "Bob" }, { "if-match": etag }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 412]);
    await Promise.all(answers.map((answer) => answer.text()));
  });

  it("gives a page an ETag; If-None-Match answers 304 until the page changes", async () => {
    const pet = await json(await createPet({ name: "Page", categoryId: 4242 }));
    const first = await server.api("/pets?categoryId=4242");
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"page-[\w-]{32}"$/);
    const again = await server.api("/pets?categoryId=4242", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    expectRateLimitHeaders(again);
    await patch(pet.id, { status: "pending" });
    const changed = await server.api("/pets?categoryId=4242", { headers: { "if-none-match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect(await json(changed)).toEqual([{ ...pet, status: "pending" }]);
  });

  it("keeps a page's ETag through a rename and back only if nothing else changed: the revision counts, and so does a next page appearing", async () => {
    const pet = await json(await createPet({ name: "Same", categoryId: 4343 }));
    const etag = (await server.api("/pets?categoryId=4343&limit=1")).headers.get("etag") ?? "";
    await patch(pet.id, { name: "Other" });
    await patch(pet.id, { name: "Same" });
    const renamedBack = await server.api("/pets?categoryId=4343&limit=1", { headers: { "if-none-match": etag } });
    expect(renamedBack.status).toBe(200);
    const current = renamedBack.headers.get("etag") ?? "";
    expect(current).not.toBe(etag);
    expect(renamedBack.headers.get("link")).toBeNull();
    // A second pet: the first page's body is the same, but it now has a next page.
    await createPet({ name: "Next", categoryId: 4343 });
    const withNext = await server.api("/pets?categoryId=4343&limit=1", { headers: { "if-none-match": current } });
    expect(withNext.status).toBe(200);
    expect(withNext.headers.get("link")).toMatch(/rel="next"$/);
    const notModified = await server.api("/pets?categoryId=4343&limit=1", { headers: { "if-none-match": withNext.headers.get("etag") ?? "" } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("link")).toBeNull();
  });
});

describe("routing errors", () => {
  it("answers an unknown path with 404 not_found", async () => {
    await expectError(await server.api("/nothing-here"), 404, "not_found");
    await expectError(await server.api(`${server.origin}/robots.txt`, { key: null }), 404, "not_found");
  });

  it.each([
    ["DELETE", "/pets", "GET, HEAD, POST"],
    ["PUT", "/pets/1", "GET, HEAD, PATCH, DELETE"],
    ["GET", "/keys/key_x", "DELETE"],
  ])("answers %s %s with 405 and Allow: %s", async (method, path, allow) => {
    const response = await server.api(path, { method });
    expect(response.headers.get("allow")).toBe(allow);
    await expectError(response, 405, "method_not_allowed");
  });

  it("marks a 405 on /pets/{petId} as not deprecated: only getPet is, not the resource", async () => {
    const response = await server.api("/pets/1", { method: "PUT" });
    expect(response.headers.get("deprecation")).toBeNull();
    await expectError(response, 405, "method_not_allowed");
  });

  it("answers HEAD like GET without a body", async () => {
    const response = await server.api("/pets", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
  });
});

function expectDeprecation(response: Response): void {
  expect(response.headers.get("deprecation")).toMatch(/^@\d+$/);
  expect(response.headers.get("sunset")).toBe("Thu, 05 Dec 2030 00:00:00 GMT");
  expect(response.headers.get("link")).toBe(`<${server.origin}/v1/pets>; rel="successor-version"`);
}
