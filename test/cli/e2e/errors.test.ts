// Failures as a user meets them: no key, no server, a slow server, a rate limiter in front.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startServeProcess, type ServeProcess } from "../../helpers/serve-process.js";
import { errorResponse, startFakeApi, unusedBaseUrl, type FakeApi } from "../helpers/fake-api.js";
import { runCli } from "../helpers/run-cli.js";

let server: ServeProcess;
let fake: FakeApi | undefined;

beforeAll(async () => {
  server = await startServeProcess();
});
afterAll(() => server.stop());
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe("authentication", () => {
  it("exits 3 and says how to set a key when none is sent", async () => {
    const result = await runCli(["pets", "list"], { env: { PETSTORE_BASE_URL: server.baseUrl } });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /^Error: .+ \(unauthorized, HTTP 401\)\nNo API key was sent\. Set one with --api-key, PETSTORE_API_KEY, or `petstore config set api-key -` \(reads the key from stdin\)\.\n$/,
    );
  });

  it("prints the JSON Error object on stderr with --json", async () => {
    const result = await runCli(["pets", "list", "--json", "--api-key", "ps_wrong_key_000000000000", "--base-url", server.baseUrl]);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    const body = JSON.parse(result.stderr) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["code", "message", "status"]);
    expect(body).toMatchObject({ code: "unauthorized", status: 401 });
  });
});

describe("a base URL without /v1", () => {
  const env = () => ({ PETSTORE_BASE_URL: server.origin, PETSTORE_API_KEY: server.adminKey });

  it("says the base URL is wrong and how to fix it, exit 1, for a collection (pets list, status)", async () => {
    const hint = `The base URL ${server.origin} does not end with /v1, where the API is: try ${server.origin}/v1 (--base-url, PETSTORE_BASE_URL, or \`petstore config set base-url\`).\n`;
    const list = await runCli(["pets", "list"], { env: env() });
    expect(list).toEqual({
      code: 1,
      stdout: "",
      stderr: `Error: GET /pets answered 404: the base URL ${server.origin} does not point at the petstore API (unexpected_response, HTTP 404)\n${hint}`,
    });
    const status = await runCli(["status"], { env: env() });
    expect(status.code).toBe(1);
    expect(status.stderr).toBe(
      `Error: GET /keys/current answered 404: the base URL ${server.origin} does not point at the petstore API (unexpected_response, HTTP 404)\n${hint}`,
    );
    const json = await runCli(["pets", "list", "--json"], { env: env() });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toMatchObject({ code: "unexpected_response", status: 404 });
  });

  it("still exits 4 for a pet's id, with the same URL to try", async () => {
    const result = await runCli(["pets", "get", "5"], { env: env() });
    expect(result).toMatchObject({ code: 4, stdout: "" });
    expect(result.stderr).toMatch(/^Error: no such resource: GET \/pets\/5\b.* \(not_found, HTTP 404\)\n/);
    expect(result.stderr).toMatch(new RegExp(`\\nThe base URL ${server.origin} does not end with /v1, where the API is: try ${server.origin}/v1\\.\\n$`));
    const missing = await runCli(["pets", "get", "99999"], { env: { ...env(), PETSTORE_BASE_URL: server.baseUrl } });
    expect(missing).toMatchObject({ code: 4, stderr: "Error: no pet with id 99999 (not_found, HTTP 404)\n" });
  });
});

describe("no server", () => {
  it("exits 6 and asks whether a server runs at the base URL it names", async () => {
    const baseUrl = await unusedBaseUrl();
    const result = await runCli(["pets", "list", "--retries", "0"], { env: { PETSTORE_BASE_URL: baseUrl, PETSTORE_API_KEY: "k" } });
    expect(result.code).toBe(6);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `Error: connection refused by ${new URL(baseUrl).origin}\n` +
        `Is a server running at ${baseUrl}? Start one with \`petstore serve\`, or choose another with --base-url, PETSTORE_BASE_URL or --env.\n`,
    );
  });

  it("retries a refused GET before giving up, and shows the retries with --verbose", async () => {
    const baseUrl = await unusedBaseUrl();
    const result = await runCli(["pets", "list", "--retries", "2", "--verbose"], { env: { PETSTORE_BASE_URL: baseUrl } });
    expect(result.code).toBe(6);
    expect(result.stderr.match(/^> GET /gm)).toHaveLength(3);
    expect(result.stderr.match(/^Retrying in \d+\.\d s after connection refused by .+ \(retry \d of 2\)$/gm)).toHaveLength(2);
  });

  it("exits 6 when the server does not answer within --timeout, after retrying the GET", async () => {
    fake = await startFakeApi([{ status: 200, hang: true }]);
    const result = await runCli(["pets", "list", "--timeout", "200", "--retries", "1"], { env: { PETSTORE_BASE_URL: fake.baseUrl } });
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/^Error: no answer from http:\/\/127\.0\.0\.1:\d+ within 200 ms\n/);
    expect(fake.requests).toHaveLength(2);
  });
});

describe("retries against a rate limiter in front of the API", () => {
  const pets = [{ id: 1, name: "Rex", categoryId: 1, status: "available" }];

  it("waits for Retry-After after a 429 and then succeeds", async () => {
    fake = await startFakeApi([errorResponse(429, "rate_limited", "slow down", { "retry-after": "1" }), { status: 200, body: pets }]);
    const result = await runCli(["pets", "list", "--verbose"], { env: { PETSTORE_BASE_URL: fake.baseUrl, PETSTORE_API_KEY: "k" } });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("1\tRex\t1\tavailable\n");
    expect(result.stderr).toContain("Retrying in 1.0 s after HTTP 429 (retry 1 of 3)\n");
    expect(fake.requests).toHaveLength(2);
  });

  it("retries a POST on 429", async () => {
    fake = await startFakeApi([errorResponse(429, "rate_limited", "slow down", { "retry-after": "0" }), { status: 201, body: pets[0] }]);
    const result = await runCli(["pets", "add", "--name", "Rex", "--category", "1"], { env: { PETSTORE_BASE_URL: fake.baseUrl } });
    expect(result).toMatchObject({ code: 0, stdout: "1\tRex\t1\tavailable\n" });
    expect(fake.requests.map((request) => request.method)).toEqual(["POST", "POST"]);
  });

  it("exits 5 when still rate-limited after --retries", async () => {
    fake = await startFakeApi([errorResponse(429, "rate_limited", "slow down", { "retry-after": "0" })]);
    const result = await runCli(["pets", "list", "--retries", "2"], { env: { PETSTORE_BASE_URL: fake.baseUrl } });
    expect(result.code).toBe(5);
    expect(result.stderr).toBe("Error: slow down (rate_limited, HTTP 429)\nStill rate-limited after 2 retries; retry in 1 s.\n");
    expect(fake.requests).toHaveLength(3);
  });

  it("retries a GET and a POST on 503, the POST under one Idempotency-Key, and exits 1 for a 5xx", async () => {
    fake = await startFakeApi([errorResponse(503, "storage_unavailable", "busy")]);
    const get = await runCli(["pets", "list", "--retries", "1"], { env: { PETSTORE_BASE_URL: fake.baseUrl } });
    expect(get.code).toBe(1);
    expect(fake.requests).toHaveLength(2);
    const post = await runCli(["pets", "add", "--name", "Rex", "--category", "1", "--retries", "1"], { env: { PETSTORE_BASE_URL: fake.baseUrl } });
    expect(post.code).toBe(1);
    expect(post.stderr).toMatch(/^Error: busy \(storage_unavailable, HTTP 503\)\n/);
    const keys = fake.requests.slice(2).map((request) => request.headers["idempotency-key"]);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it("creates once when the first answer is lost: the retry carries the key and --verbose says it was a replay", async () => {
    const created = { id: 7, name: "Rex", categoryId: 1, status: "available" };
    fake = await startFakeApi([{ status: 200, hang: true }, { status: 201, body: created, headers: { "idempotent-replayed": "true" } }]);
    const args = ["pets", "add", "--name", "Rex", "--category", "1", "--timeout", "300", "--verbose"];
    const result = await runCli(args, { env: { PETSTORE_BASE_URL: fake.baseUrl } });
    expect(result).toMatchObject({ code: 0, stdout: "7\tRex\t1\tavailable\n" });
    expect(result.stderr).toMatch(/Retrying in \d+\.\d s after no answer from .+ within 300 ms \(retry 1 of 3\)\n/);
    expect(result.stderr).toContain("  Replayed: an earlier attempt of this request was already done");
    expect(fake.requests[1]?.headers["idempotency-key"]).toBe(fake.requests[0]?.headers["idempotency-key"]);
  });

  it("exits 1 for a 400", async () => {
    fake = await startFakeApi([errorResponse(400, "invalid_body", "name: must not be empty")]);
    const result = await runCli(["pets", "add", "--name", "Rex", "--category", "1"], { env: { PETSTORE_BASE_URL: fake.baseUrl } });
    expect(result).toEqual({ code: 1, stdout: "", stderr: "Error: name: must not be empty (invalid_body, HTTP 400)\n" });
  });
});
