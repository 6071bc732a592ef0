// The verbs in-process against a scripted server: exit codes, stdout and stderr for every
// kind of answer, without a subprocess.
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { errorResponse, startFakeApi, type FakeApi, type FakeResponse } from "./helpers/fake-api.js";
import { createTestContext, type TestContextOptions } from "./helpers/test-context.js";

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function run(argv: string[], responses: FakeResponse[] | ((path: string) => FakeResponse), options: TestContextOptions = {}) {
  await api?.close();
  api = await startFakeApi(typeof responses === "function" ? (request) => responses(request.path) : responses);
  const test = createTestContext({
    ...options,
    env: { PETSTORE_BASE_URL: api.baseUrl, PETSTORE_API_KEY: "ps_test", PETSTORE_CONFIG: "/nonexistent/c.json", ...options.env },
  });
  const code = await main(argv, test.ctx);
  return { code, stdout: test.stdout(), stderr: test.stderr(), sleeps: test.sleeps, requests: api.requests };
}

const pet = (id: number) => ({ id, name: `pet${id}`, categoryId: 1, status: "available" });

describe("exit codes and error lines", () => {
  it.each([
    { status: 400, code: "invalid_body", exit: 1 },
    { status: 401, code: "unauthorized", exit: 3 },
    { status: 403, code: "forbidden", exit: 3 },
    { status: 404, code: "not_found", exit: 4 },
    { status: 429, code: "rate_limited", exit: 5 },
    { status: 500, code: "internal_error", exit: 1 },
    { status: 503, code: "storage_unavailable", exit: 1 },
  ])("HTTP $status → exit $exit", async ({ status, code, exit }) => {
    const result = await run(["pets", "list", "--retries", "0"], [errorResponse(status, code, "it went wrong")]);
    expect(result.code).toBe(exit);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n")[0]).toBe(`Error: it went wrong (${code}, HTTP ${status})`);
  });

  it("prints the Error object as JSON on stderr with --json, and no hint", async () => {
    const result = await run(["pets", "list", "--json"], [errorResponse(401, "unauthorized", "the API key is not valid")]);
    expect(result).toMatchObject({ code: 3, stdout: "" });
    expect(result.stderr).toBe('{"code":"unauthorized","message":"the API key is not valid","status":401}\n');
  });

  it("hints how to set a key on 401", async () => {
    const result = await run(["pets", "list"], [errorResponse(401, "unauthorized", "missing API key")], { env: { PETSTORE_API_KEY: "" } });
    expect(result.stderr).toBe(
      "Error: missing API key (unauthorized, HTTP 401)\n" +
        "No API key was sent. Set one with --api-key, PETSTORE_API_KEY, or `petstore config set api-key -` (reads the key from stdin).\n",
    );
  });

  it("says when to retry after the retries on 429 are spent", async () => {
    const result = await run(["pets", "list", "--retries", "2"], [errorResponse(429, "rate_limited", "slow down", { "retry-after": "4" })]);
    expect(result.code).toBe(5);
    expect(result.sleeps).toEqual([4000, 4000]);
    expect(result.stderr).toBe("Error: slow down (rate_limited, HTTP 429)\nStill rate-limited after 2 retries; retry in 4 s.\n");
  });

  it("retries a 429 after Retry-After and succeeds with exit 0", async () => {
    const result = await run(["pets", "list"], [errorResponse(429, "rate_limited", "slow down", { "retry-after": "1" }), { status: 200, body: [pet(1)] }]);
    expect(result).toMatchObject({ code: 0, stdout: "1\tpet1\t1\tavailable\n", stderr: "", sleeps: [1000] });
  });
});

describe("pets list", () => {
  const pages = (path: string): FakeResponse => {
    const cursor = Number(new URL(path, "http://x").searchParams.get("cursor") ?? "0");
    const next = cursor < 2 ? { link: `</v1/pets?limit=1&cursor=${cursor + 1}>; rel="next"` } : undefined;
    return { status: 200, headers: next, body: [pet(cursor + 1)] };
  };

  it("follows rel=next to the last page with --all, sending --limit as the page size", async () => {
    const result = await run(["pets", "list", "--all", "--limit", "1"], pages);
    expect(result.stdout).toBe("1\tpet1\t1\tavailable\n2\tpet2\t1\tavailable\n3\tpet3\t1\tavailable\n");
    expect(result.requests.map((request) => request.path)).toEqual(["/v1/pets?limit=1", "/v1/pets?limit=1&cursor=1", "/v1/pets?limit=1&cursor=2"]);
    expect(result.stderr).toBe("");
  });

  it("asks for pages of 100 with --all and no --limit", async () => {
    const result = await run(["pets", "list", "--all", "--status", "sold"], [{ status: 200, body: [] }]);
    expect(result.requests[0]?.path).toBe("/v1/pets?status=sold&limit=100");
  });

  it("shows progress on stderr when stderr is a TTY, and clears it", async () => {
    const result = await run(["pets", "list", "--all", "--limit", "1"], pages, { isStderrTTY: true });
    expect(result.stderr).toBe(
      "\r\u001b[2KFetched 1 pet (1 page)…\r\u001b[2KFetched 2 pets (2 pages)…\r\u001b[2KFetched 3 pets (3 pages)…\r\u001b[2K",
    );
  });

  it("fetches one page without --all, and tells a person that more follow", async () => {
    const result = await run(["pets", "list", "--limit", "1", "--no-color"], pages, { isStdoutTTY: true });
    expect(result.requests).toHaveLength(1);
    expect(result.stdout).toBe("ID  NAME  CATEGORY  STATUS\n1   pet1  1         available\n");
    expect(result.stderr).toBe("Showing 1 pet; more follow: add --all to fetch every page.\n");
  });

  it("tells a person when there are no pets, and prints nothing on stdout", async () => {
    const result = await run(["pets", "list", "--status", "sold"], [{ status: 200, body: [] }], { isStdoutTTY: true, isStderrTTY: true });
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "No pets found.\n" });
  });

  it("prints a JSON array of every page with --all --json", async () => {
    const result = await run(["pets", "list", "--all", "--limit", "1", "--json"], pages);
    expect(JSON.parse(result.stdout)).toEqual([pet(1), pet(2), pet(3)]);
  });

  it("refuses to follow a next link to another origin with the key", async () => {
    const result = await run(["pets", "list", "--all"], [{ status: 200, headers: { link: '<http://evil.example/v1/pets?cursor=1>; rel="next"' }, body: [pet(1)] }]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Error: refusing to follow http:\/\/evil\.example/);
  });
});

describe("pets get", () => {
  const deprecated = {
    deprecation: "@1767225600",
    sunset: "Thu, 05 Dec 2030 00:00:00 GMT",
    link: '<http://127.0.0.1/v1/pets>; rel="successor-version"',
  };
  const notice =
    "Warning: GET /pets/{id}, which `petstore pets get` calls, is deprecated and will be removed on 2030-12-05. " +
    "Use `petstore pets list --status <status>` instead.\n";

  it("prints the pet and one deprecation notice naming the date and the replacement, even after a retry", async () => {
    const result = await run(["pets", "get", "7"], [
      { ...errorResponse(429, "rate_limited", "wait", { "retry-after": "1" }), headers: { ...deprecated, "retry-after": "1" } },
      { status: 200, headers: deprecated, body: pet(7) },
    ]);
    expect(result).toMatchObject({ code: 0, stdout: "7\tpet7\t1\tavailable\n", stderr: notice });
  });

  it("prints the Pet object with --json; the notice stays on stderr", async () => {
    const result = await run(["pets", "get", "7", "--json"], [{ status: 200, headers: deprecated, body: pet(7) }]);
    expect(JSON.parse(result.stdout)).toEqual(pet(7));
    expect(result.stderr).toBe(notice);
  });

  it("prints no notice when the response is not marked deprecated", async () => {
    const result = await run(["pets", "get", "7"], [{ status: 200, body: pet(7) }]);
    expect(result.stderr).toBe("");
  });
});

describe("pets add and keys", () => {
  it("posts the new pet and prints the created one", async () => {
    const result = await run(["pets", "add", "--name", "Rex", "--category", "3", "--status", "pending"], [{ status: 201, body: { ...pet(9), categoryId: 3, status: "pending", name: "Rex" } }]);
    expect(JSON.parse(result.requests[0]?.body ?? "")).toEqual({ name: "Rex", categoryId: 3, status: "pending" });
    expect(result.stdout).toBe("9\tRex\t3\tpending\n");
  });

  it("posts an enterprise key with its limits", async () => {
    const created = { id: "key_1", key: "ps_new_secret_0123", prefix: "ps_new", plan: "enterprise", name: "big", limits: { perMinute: 5, perDay: 9 }, createdAt: "2030-01-01T00:00:00.000Z" };
    const result = await run(["keys", "create", "--plan", "enterprise", "--name", "big", "--per-minute", "5", "--per-day", "9"], [{ status: 201, body: created }]);
    expect(JSON.parse(result.requests[0]?.body ?? "")).toEqual({ plan: "enterprise", name: "big", perMinute: 5, perDay: 9 });
    expect(result.stdout).toBe("ps_new_secret_0123\n");
  });

  it("revokes with DELETE and says so only on a TTY", async () => {
    const quiet = await run(["keys", "revoke", "key_1"], [{ status: 204 }]);
    expect(quiet).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(quiet.requests[0]).toMatchObject({ method: "DELETE", path: "/v1/keys/key_1" });
    const loud = await run(["keys", "revoke", "key_1"], [{ status: 204 }], { isStderrTTY: true });
    expect(loud.stderr).toBe("Revoked key key_1.\n");
  });
});
