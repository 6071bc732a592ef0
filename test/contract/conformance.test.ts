// The conformance helper itself: it must refuse what the document does not declare, or every
// integration test that goes through it proves nothing.
import { afterEach, describe, expect, it } from "vitest";
import { checkResponse, forgetConformanceFailures } from "../helpers/conformance.js";

afterEach(forgetConformanceFailures);

const RATE_LIMIT = {
  "x-ratelimit-limit": "60",
  "x-ratelimit-remaining": "59",
  "x-ratelimit-reset": "1795350480",
  "ratelimit-policy": '"minute";q=60;w=60, "day";q=1000;w=86400',
  ratelimit: '"minute";r=59;t=42, "day";r=999;t=50000',
};
const DEPRECATION = {
  deprecation: "@1767225600",
  sunset: "Thu, 05 Dec 2030 00:00:00 GMT",
  link: '<http://127.0.0.1:3000/v1/pets>; rel="successor-version"',
};
const PET = { id: 1, name: "Rex", categoryId: 3, status: "available" };
const BASE = "http://127.0.0.1:3000/v1";
const ORDER = { id: 1, petId: 1, status: "placed", createdAt: "2026-11-22T12:00:00.000Z", updatedAt: "2026-11-22T12:00:00.000Z" };
const BETA = { "x-api-stability": "beta" };

function reply(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const text = body === undefined ? null : JSON.stringify(body);
  const contentType: Record<string, string> = text === null ? {} : { "content-type": "application/json" };
  return new Response(text, { status, headers: { ...RATE_LIMIT, ...contentType, ...headers } });
}
const error = (status: number, code: string) => ({ code, message: "m", status });

describe("checkResponse accepts what the document declares", () => {
  it.each([
    ["GET", `${BASE}/pets?limit=1`, reply(200, [PET], { link: `<${BASE}/pets?cursor=cDE>; rel="next"`, etag: '"page-1"' })],
    ["POST", `${BASE}/pets`, reply(201, PET, { location: "/v1/pets/1", etag: '"pet-1-1"' })],
    ["POST", `${BASE}/pets`, reply(201, PET, { location: "/v1/pets/1", etag: '"pet-1-1"', "idempotent-replayed": "true" })],
    ["POST", `${BASE}/pets`, reply(409, error(409, "idempotency_key_in_progress"))],
    ["POST", `${BASE}/pets`, reply(422, error(422, "idempotency_key_reused"))],
    ["POST", `${BASE}/pets`, reply(400, error(400, "invalid_parameter"))],
    ["POST", `${BASE}/keys`, reply(201, { id: "key_1", key: `ps_${"a".repeat(40)}`, prefix: "ps_aaaaaa", plan: "free", name: null, scopes: ["pets:read"], limits: { perMinute: 60, perDay: 1000 }, createdAt: "2026-01-01T00:00:00.000Z" }, { location: "/v1/keys/key_1", "idempotent-replayed": "true" })],
    ["POST", `${BASE}/keys`, reply(422, error(422, "idempotency_key_reused"))],
    ["GET", "/pets/{petId}", reply(200, PET, { ...DEPRECATION, etag: '"pet-1-1"' })],
    ["GET", "/pets/{petId}", reply(304, undefined, { ...DEPRECATION, etag: '"pet-1-1"' })],
    ["PATCH", `${BASE}/pets/1`, reply(412, error(412, "precondition_failed"))],
    ["DELETE", `${BASE}/keys/key_1`, reply(204, undefined)],
    ["GET", `${BASE}/pets`, reply(429, error(429, "key_banned"), { "retry-after": "900" })],
    ["DELETE", `${BASE}/pets`, reply(405, error(405, "method_not_allowed"), { allow: "GET, HEAD, POST" })],
    ["GET", "http://127.0.0.1:3000/favicon.ico", reply(404, error(404, "not_found"))],
    ["POST", `${BASE}/store/orders`, reply(201, ORDER, { ...BETA, location: "/v1/store/orders/1", etag: '"order-1-1"' })],
    ["GET", `${BASE}/store/orders?status=placed`, reply(200, [ORDER], { ...BETA, link: `<${BASE}/store/orders?cursor=cDE>; rel="next"` })],
    ["GET", "/store/orders/{orderId}", reply(200, ORDER, { ...BETA, etag: '"order-1-1"' })],
    ["PATCH", `${BASE}/store/orders/1`, reply(409, error(409, "invalid_transition"), BETA)],
    ["POST", `${BASE}/store/orders`, reply(409, error(409, "pet_not_available"), BETA)],
    ["DELETE", `${BASE}/pets/1`, reply(409, error(409, "pet_has_open_order"))],
    ["GET", `${BASE}/store/inventory`, reply(200, { available: 1, pending: 0, sold: 2 }, BETA)],
  ])("%s %s", async (method, url, response) => {
    await expect(checkResponse(method, url, response)).resolves.toBeUndefined();
  });
});

describe("checkResponse refuses", () => {
  it.each([
    ["a status the operation does not declare", "GET", "/pets/{petId}", reply(409, error(409, "invalid_transition"), DEPRECATION), /declares 200, 304, 400, 401, 403, 404, 406, 429, 500, 503, not 409/],
    ["forbidden where only insufficient_scope can be", "GET", "/pets/{petId}", reply(403, error(403, "forbidden"), { ...DEPRECATION, "www-authenticate": 'Bearer error="insufficient_scope", scope="pets:read"' }), /code/],
    ["a Pet without its ETag", "GET", "/pets/{petId}", reply(200, PET, DEPRECATION), /required header etag is missing/],
    ["a missing required header", "POST", "/pets", reply(201, PET, { etag: '"pet-1-1"' }), /required header location is missing/],
    ["an undeclared header", "GET", "/pets", reply(200, [], { etag: '"page-1"', "x-powered-by": "h3" }), /header x-powered-by is not declared/],
    ["a header value its schema refuses", "GET", "/pets", reply(200, [], { "x-ratelimit-limit": "lots" }), /header x-ratelimit-limit/],
    ["a body with a field the schema does not name", "GET", "/pets", reply(200, [{ ...PET, hash: "x" }]), /must NOT have additional properties/],
    ["a code that does not go with the status", "GET", "/pets", reply(401, error(401, "forbidden"), { "www-authenticate": 'Bearer realm="petstore"' }), /code/],
    ["a body on HEAD", "HEAD", "/pets", reply(200, [PET]), /declares no body/],
    ["an Allow that differs from the document", "PUT", "/pets", reply(405, error(405, "method_not_allowed"), { allow: "GET" }), /Allow is "GET"/],
    ["a Store answer without its beta mark", "GET", `${BASE}/store/inventory`, reply(200, { available: 1, pending: 0, sold: 2 }), /x-api-stability is missing/],
    ["an order's 409 with a pet's code", "PATCH", `${BASE}/store/orders/1`, reply(409, error(409, "pet_not_available"), BETA), /code/],
    ["a 200 on an unlisted path", "GET", "/store/carts", reply(200, []), /an unlisted path declares/],
    ["Idempotent-Replayed with another value", "POST", "/pets", reply(201, PET, { location: "/v1/pets/1", etag: '"pet-1-1"', "idempotent-replayed": "yes" }), /header idempotent-replayed/],
    ["a 409 with another code", "POST", "/pets", reply(409, error(409, "precondition_failed")), /code/],
    ["a 422 where the operation has none", "GET", "/pets", reply(422, error(422, "idempotency_key_reused")), /not 422/],
    ["Idempotent-Replayed where no create is", "GET", "/pets", reply(200, [], { etag: '"page-1"', "idempotent-replayed": "true" }), /header idempotent-replayed is not declared/],
    ["rate-limit headers on /healthz", "GET", "http://127.0.0.1:3000/healthz", reply(200, { status: "ok" }), /only transport headers/],
  ])("%s", async (_label, method, url, response, message) => {
    await expect(checkResponse(method, url, response)).rejects.toThrow(message);
  });
});
