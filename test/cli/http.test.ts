// The client over the real wire (undici) against a scripted stand-in for whatever may sit in
// front of the API (a proxy, a rate limiter): retries, time limits, answers that are not the API's.
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { ApiError, ExitCode, exitCodeFor, NetworkError } from "../../src/cli/errors.js";
import { createApiClient, resolveTarget, type ApiClient, type HttpSettings, type Method, type RequestOptions } from "../../src/cli/http.js";
import { undiciTransport } from "../../src/cli/internal/undici-transport.js";
import { httpReporter } from "../../src/cli/output/http-log.js";
import { errorResponse, startFakeApi, type FakeApi, type FakeResponse } from "./helpers/fake-api.js";
import { createTestContext, type TestContext } from "./helpers/test-context.js";

type TestSettings = HttpSettings & { verbose: boolean };

/** A client as the process context builds one, over undici, its lines on the test's stderr. */
function clientFor(settings: TestSettings, test: TestContext): ApiClient {
  const { io, now, sleep, random } = test.ctx;
  const hooks = httpReporter({ write: (chunk) => io.stderr.write(chunk), isTTY: io.isStderrTTY }, settings);
  return createApiClient(settings, { ...hooks, transport: undiciTransport(settings), now, sleep, random });
}

async function withApiClient<T>(settings: TestSettings, test: TestContext, use: (api: ApiClient) => Promise<T>): Promise<T> {
  const client = clientFor(settings, test);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

const pets = [{ id: 1, name: "Rex", categoryId: 1, status: "available" }];
const tooMany = (headers: Record<string, string> = {}) => errorResponse(429, "rate_limited", "rate limit exceeded", headers);
// Every fake opened by a test, closed after it: a test that calls twice opens two.
const opened: FakeApi[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((api) => api.close()));
});

async function fakeApi(responses: FakeResponse[]): Promise<FakeApi> {
  const api = await startFakeApi(responses);
  opened.push(api);
  return api;
}

async function call(
  responses: FakeResponse[],
  method: Method = "GET",
  overrides: Partial<TestSettings> = {},
  now?: () => number,
  options: RequestOptions = {},
) {
  const api = await fakeApi(responses);
  const test = createTestContext({ now });
  const settings: TestSettings = { baseUrl: api.baseUrl, apiKey: "ps_key", timeoutMs: 2000, retries: 3, maxWaitMs: 60_000, verbose: false, ...overrides };
  const body = method === "POST" ? { name: "Rex", categoryId: 1 } : undefined;
  const target = method === "GET" || method === "POST" ? "/pets" : "/pets/1";
  const result = await withApiClient(settings, test, (client) => client.request(method, target, { body, ...options })).then(
    (response) => ({ response, error: undefined }),
    (error: unknown) => ({ response: undefined, error }),
  );
  return { ...result, ...test, requests: api.requests, baseUrl: api.baseUrl };
}

describe("requests", () => {
  it("sends the key as a bearer token, JSON bodies with their content type, and parses JSON", async () => {
    const { response, requests } = await call([{ status: 201, body: pets[0] }], "POST");
    expect(response?.body).toEqual(pets[0]);
    expect(requests[0]).toMatchObject({ method: "POST", path: "/v1/pets", body: '{"name":"Rex","categoryId":1}' });
    expect(requests[0]?.headers).toMatchObject({ authorization: "Bearer ps_key", "content-type": "application/json", accept: "application/json" });
  });

  it("sends no Authorization header without a key", async () => {
    const { requests } = await call([{ status: 200, body: pets }], "GET", { apiKey: undefined });
    expect(requests[0]?.headers.authorization).toBeUndefined();
  });

  it("sends a PATCH with the caller's content type and If-Match, but never lets a header replace the key", async () => {
    const headers = { "content-type": "application/merge-patch+json", "if-match": '"pet-1-1"', authorization: "Bearer other" };
    const { requests } = await call([{ status: 200, body: pets[0] }], "PATCH", {}, undefined, { body: { status: "sold" }, headers });
    expect(requests[0]).toMatchObject({ method: "PATCH", path: "/v1/pets/1", body: '{"status":"sold"}' });
    expect(requests[0]?.headers).toMatchObject({ "content-type": "application/merge-patch+json", "if-match": '"pet-1-1"', authorization: "Bearer ps_key" });
    expect(requests[0]?.headers["idempotency-key"]).toBeUndefined();
  });

  it("shows each answer's ETag with --verbose, for --if-match", async () => {
    const { stderr } = await call([{ status: 200, body: pets[0], headers: { etag: '"pet-1-2"' } }], "GET", { verbose: true });
    expect(stderr()).toMatch(/^> GET .+\n< HTTP 200 \(\d+ ms\)\n {2}ETag: "pet-1-2"\n$/);
  });

  it("says with --verbose when the server answered with a replay of an earlier attempt", async () => {
    const replay = { status: 201, body: pets[0], headers: { "idempotent-replayed": "true" } };
    const { stderr, requests } = await call([errorResponse(502, "x", "bad gateway"), replay], "POST", { verbose: true });
    expect(requests.map((request) => request.headers["idempotency-key"])).toEqual([requests[0]?.headers["idempotency-key"], requests[0]?.headers["idempotency-key"]]);
    expect(stderr()).toContain("  Replayed: an earlier attempt of this request was already done; this is its answer again, nothing was done twice\n");
    expect((await call([replay], "POST")).stderr()).toBe("");
  });

  it("logs requests and answers on stderr with --verbose, never the key", async () => {
    const { stderr } = await call([{ status: 200, body: pets }], "GET", { verbose: true });
    expect(stderr()).toMatch(/^> GET http:\/\/127\.0\.0\.1:\d+\/v1\/pets\n< HTTP 200 \(\d+ ms\)\n$/);
  });
});

describe("retries", () => {
  it("waits for Retry-After after a 429, then succeeds", async () => {
    const { response, sleeps, requests } = await call([tooMany({ "retry-after": "2" }), { status: 200, body: pets }]);
    expect(response?.body).toEqual(pets);
    expect(sleeps).toEqual([2000]);
    expect(requests).toHaveLength(2);
  });

  it("backs off exponentially with full jitter when a 429 has no Retry-After", async () => {
    const { error, sleeps, requests } = await call([tooMany()]);
    expect(sleeps).toEqual([125, 250, 500]);
    expect(requests).toHaveLength(4);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).body).toEqual({ code: "rate_limited", message: "rate limit exceeded", status: 429 });
  });

  it("says when to retry once the retries are spent", async () => {
    const { error } = await call([tooMany({ "retry-after": "3" })], "GET", { retries: 1 });
    expect((error as ApiError).hint).toBe("Still rate-limited after 1 retry; retry in 3 s.");
    expect((error as ApiError).retryAfter).toBe(3);
  });

  it("retries a POST on 429", async () => {
    const { response, requests } = await call([tooMany({ "retry-after": "1" }), { status: 201, body: pets[0] }], "POST");
    expect(response?.status).toBe(201);
    expect(requests).toHaveLength(2);
  });

  it.each([502, 503, 504])("retries a GET on %i", async (status) => {
    const { response, requests } = await call([errorResponse(status, "x", "down"), { status: 200, body: pets }]);
    expect(response?.body).toEqual(pets);
    expect(requests).toHaveLength(2);
  });

  it("retries a POST on 429 under the same Idempotency-Key, fresh for each POST", async () => {
    const busy = tooMany({ "retry-after": "1" });
    const { response, requests, sleeps } = await call([busy, { status: 201, body: pets[0] }], "POST");
    expect(response?.status).toBe(201);
    expect(sleeps).toEqual([1000]);
    const keys = requests.map((request) => request.headers["idempotency-key"]);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
    const again = await call([{ status: 201, body: pets[0] }], "POST");
    expect(again.requests[0]?.headers["idempotency-key"]).not.toBe(keys[0]);
  });

  it("sends no Idempotency-Key with a GET", async () => {
    const { requests } = await call([{ status: 200, body: pets }]);
    expect(requests[0]?.headers["idempotency-key"]).toBeUndefined();
  });

  it("does not retry a 500 or a 400", async () => {
    for (const status of [500, 400]) {
      const { requests } = await call([errorResponse(status, "x", "no")]);
      expect(requests).toHaveLength(1);
    }
  });

  it("gives up at once when Retry-After is past --max-wait, saying no retry was made and until when the ban lasts", async () => {
    const savedTz = process.env.TZ;
    process.env.TZ = "Europe/Paris";
    onTestFinished(() => {
      if (savedTz === undefined) delete process.env.TZ;
      else process.env.TZ = savedTz;
    });
    const noon = () => Date.UTC(2030, 0, 1, 12, 0, 0);
    const { error, sleeps } = await call([errorResponse(429, "key_banned", "banned", { "retry-after": "900" })], "GET", {}, noon);
    expect(sleeps).toEqual([]);
    // The test clock stands at 2030-01-01T12:00:00Z: 13:00 in Paris, so the ban ends at 13:15.
    expect((error as ApiError).hint).toBe("Rate-limited: the key is banned until 13:15 (15 min) after repeated requests over its limit.");
    expect((error as ApiError).retryAfter).toBe(900);
  });

  it("waits a Retry-After within --max-wait, and not one past it", async () => {
    const long = tooMany({ "retry-after": "30" });
    expect((await call([long, { status: 200, body: pets }], "GET", { maxWaitMs: 30_000 })).sleeps).toEqual([30_000]);
    const { sleeps, error } = await call([long, long], "GET", { maxWaitMs: 45_000 });
    expect(sleeps).toEqual([30_000]);
    expect((error as ApiError).hint).toBe("Still rate-limited after 1 retry; retry in 30 s.");
  });

  it("reports short retries on stderr with --verbose only, and every wait over a second always", async () => {
    const { stderr } = await call([tooMany({ "retry-after": "1" }), { status: 200, body: pets }], "GET", { verbose: true });
    expect(stderr()).toContain("Retrying in 1.0 s after HTTP 429 (retry 1 of 3)\n");
    expect((await call([tooMany({ "retry-after": "1" }), { status: 200, body: pets }])).stderr()).toBe("");
    expect((await call([tooMany({ "retry-after": "2" }), { status: 200, body: pets }])).stderr()).toBe("Retrying in 2.0 s after HTTP 429 (retry 1 of 3)\n");
  });

  it("shows each answer's remaining quota with --verbose", async () => {
    const quota = { "x-ratelimit-limit": "60", "x-ratelimit-remaining": "58", "x-ratelimit-reset": "1893499260" };
    const { stderr } = await call([{ status: 200, body: pets, headers: quota }], "GET", { verbose: true });
    expect(stderr()).toMatch(/< HTTP 200 \(\d+ ms\), quota 58\/60 left, resets at \d\d:\d\d:\d\d\n$/);
  });
});

describe("failures without an answer", () => {
  it("retries a refused GET, then names the base URL in its hint", async () => {
    const test = createTestContext();
    const settings = { baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", timeoutMs: 2000, retries: 2, maxWaitMs: 60_000, verbose: false };
    const error = await withApiClient(settings, test, (client) => client.request("GET", "/pets")).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toBe("connection refused by http://127.0.0.1:9");
    expect((error as NetworkError).hint).toContain("Is a server running at http://127.0.0.1:9/v1?");
    expect(test.sleeps).toHaveLength(2);
  });

  it("retries a refused POST and a 503 under the one Idempotency-Key: the server answers a key once", async () => {
    const test = createTestContext();
    const settings = { baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", timeoutMs: 2000, retries: 2, maxWaitMs: 60_000, verbose: false };
    await expect(withApiClient(settings, test, (client) => client.request("POST", "/pets", { body: {} }))).rejects.toThrow(NetworkError);
    expect(test.sleeps).toHaveLength(2);
    const busy = errorResponse(503, "storage_unavailable", "busy", { "retry-after": "1" });
    const { response, requests } = await call([busy, { status: 201, body: pets[0] }], "POST");
    expect(response?.status).toBe(201);
    expect(requests).toHaveLength(2);
    expect(requests[1]?.headers["idempotency-key"]).toBe(requests[0]?.headers["idempotency-key"]);
  });

  it("retries a POST whose key is still being answered (409), then gets the first attempt's answer", async () => {
    const inProgress = errorResponse(409, "idempotency_key_in_progress", "still running");
    const { response, requests } = await call([inProgress, { status: 201, body: pets[0], headers: { "idempotent-replayed": "true" } }], "POST");
    expect(response?.status).toBe(201);
    expect(requests).toHaveLength(2);
  });

  it("times out after --timeout ms, retries a request safe to repeat, and reports the timeout", async () => {
    const { error, requests } = await call([{ status: 200, hang: true }], "GET", { timeoutMs: 100, retries: 1 });
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toMatch(/^no answer from http:\/\/127\.0\.0\.1:\d+ within 100 ms$/);
    expect((error as NetworkError).code).toBe("timeout");
    expect(requests).toHaveLength(2);
  });

  it("retries a timed-out POST under the same Idempotency-Key, and a DELETE", async () => {
    const post = await call([{ status: 200, hang: true }, { status: 201, body: pets[0], headers: { "idempotent-replayed": "true" } }], "POST", { timeoutMs: 100 });
    expect(post.response?.status).toBe(201);
    expect(post.requests[1]?.headers["idempotency-key"]).toBe(post.requests[0]?.headers["idempotency-key"]);
    const del = await call([{ status: 200, hang: true }, { status: 204 }], "DELETE", { timeoutMs: 100 });
    expect(del.response?.status).toBe(204);
    expect(del.requests).toHaveLength(2);
  });
});

describe("answers after a retry", () => {
  it("marks an error that may follow the work of an earlier attempt", async () => {
    const gone = errorResponse(404, "not_found", "no pet with id 1");
    const afterLost = await call([errorResponse(504, "x", "gateway timeout"), gone], "DELETE");
    expect((afterLost.error as ApiError).repeated).toBe(true);
    const afterRefusal = await call([tooMany({ "retry-after": "0" }), gone], "DELETE");
    expect((afterRefusal.error as ApiError).repeated).toBe(false);
  });

  it("says a 412 may be the command's own change when an earlier attempt got no answer", async () => {
    const changed = errorResponse(412, "precondition_failed", "the pet changed");
    const first = await call([changed], "PATCH", {}, undefined, { body: { name: "Max" }, headers: { "if-match": '"pet-1-1"' } });
    expect((first.error as ApiError).hint).toBe(
      "The pet changed since that ETag was read. To go on, fetch it again (`petstore pets get 1 --verbose` shows its ETag) and repeat with the new ETag.",
    );
    const again = await call([errorResponse(502, "x", "bad"), changed], "PATCH", {}, undefined, { body: { name: "Max" } });
    expect((again.error as ApiError).hint).toContain("An earlier attempt of this command got no answer and may have made that change itself.");
  });
});

describe("answers that are not what we expect", () => {
  it("makes up an Error body for an HTML error page", async () => {
    const { error } = await call([{ status: 500, body: "<html>oops</html>" }]);
    expect((error as ApiError).body).toMatchObject({ code: "unexpected_response", status: 500 });
  });

  it("fails clearly on a 200 that is not JSON, saying the base URL may be wrong", async () => {
    const { error } = await call([{ status: 200, body: "<html>login</html>" }]);
    expect((error as Error).message).toMatch(/ is text\/html, not JSON: <html>login<\/html>$/);
    expect((error as ApiError).hint).toMatch(/^Something answers at http:\/\/127\.0\.0\.1:\d+, but not as the petstore API does\. Check the base URL/);
    expect(exitCodeFor(error)).toBe(ExitCode.failure);
  });

  it.each([
    ["an HTML page", "<html>Not Found</html>"],
    ["JSON without the Error shape", { error: "Not Found" }],
  ])("reports a 404 with %s as not this API (exit 1), not as no such resource (exit 4)", async (_what, body) => {
    const { error } = await call([{ status: 404, body }]);
    expect((error as ApiError).body).toMatchObject({ code: "unexpected_response", status: 404 });
    expect((error as ApiError).hint).toMatch(/not as the petstore API does\. Check the base URL: it ends with the API prefix/);
    expect(exitCodeFor(error)).toBe(ExitCode.failure);
  });

  it("still reports the API's own 404 for a record as not found (exit 4)", async () => {
    const { error } = await call([errorResponse(404, "not_found", "no pet with id 1")], "DELETE");
    expect(exitCodeFor(error)).toBe(ExitCode.notFound);
    expect((error as ApiError).hint).toBeUndefined();
  });

  it("reports a 404 for a collection every server has as a wrong base URL (exit 1), not as not found", async () => {
    const { error, baseUrl } = await call([errorResponse(404, "not_found", "no such resource: GET /v1/pets")]);
    expect((error as ApiError).body).toEqual({
      code: "unexpected_response",
      message: `GET /pets answered 404: the base URL ${baseUrl} does not point at the petstore API`,
      status: 404,
    });
    expect((error as ApiError).hint).toBe(
      "Check the base URL (--base-url, PETSTORE_BASE_URL, or `petstore config set base-url`): it is where the API answers, as in http://127.0.0.1:3000/v1.",
    );
    expect(exitCodeFor(error)).toBe(ExitCode.failure);
  });
});

describe("resolveTarget", () => {
  it("joins paths to the base URL and adds the query", () => {
    expect(resolveTarget("http://h:1/v1", "/pets", { limit: 5, status: undefined })).toBe("http://h:1/v1/pets?limit=5");
  });
  it("follows absolute links on the same origin only", () => {
    expect(resolveTarget("http://h:1/v1", "http://h:1/v1/pets?cursor=a")).toBe("http://h:1/v1/pets?cursor=a");
    expect(() => resolveTarget("http://h:1/v1", "http://evil:1/v1/pets")).toThrow(/not the base URL's origin/);
  });
});

it("closes its connections so the process can exit", async () => {
  const api = await fakeApi([{ status: 200, body: pets }]);
  const client = clientFor({ baseUrl: api.baseUrl, apiKey: "k", timeoutMs: 1000, retries: 0, maxWaitMs: 60_000, verbose: false }, createTestContext());
  await client.request("GET", "/pets");
  await client.close();
  await expect(client.request("GET", "/pets")).rejects.toThrow();
});
