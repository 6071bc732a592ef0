// `petstore webhooks ...` in process against the API in memory: what each verb sends, prints on
// stdout and stderr, and its exit code. Every scripted answer is one the OpenAPI document allows.
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { WEBHOOK_EVENT_TYPES } from "../../src/contract/webhook-values.js";
import { apiError, inMemoryApi, type Script } from "./helpers/in-memory-api.js";
import { createTestContext, type TestContextOptions } from "./helpers/test-context.js";

const BASE_URL = "http://127.0.0.1:3999/v1";
const SECRET = `whsec_${"A".repeat(43)}=`;
const TERMINAL = { isStdinTTY: true, isStderrTTY: true };

async function run(argv: string[], script: Script, options: TestContextOptions = {}) {
  const api = inMemoryApi(script);
  const test = createTestContext({
    ...options,
    api,
    env: { PETSTORE_BASE_URL: BASE_URL, PETSTORE_API_KEY: "ps_test_admin", PETSTORE_CONFIG: "/nonexistent/c.json", NO_COLOR: "1", ...options.env },
  });
  const code = await main(argv, test.ctx);
  return { code, stdout: test.stdout(), stderr: test.stderr(), requests: api.requests, questions: test.questions };
}

const webhook = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  url: `https://example.com/hook/${id}`,
  types: ["pet.created"],
  description: null,
  enabled: true,
  createdAt: "2030-01-02T03:04:05.000Z",
  updatedAt: "2030-01-02T03:04:05.000Z",
  ...extra,
});
const delivery = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  webhookId: 3,
  eventId: 40 + id,
  type: "pet.created",
  status: "succeeded",
  attempts: 1,
  createdAt: "2030-01-02T03:04:05.000Z",
  lastAttemptAt: "2030-01-02T03:04:06.000Z",
  nextAttemptAt: null,
  lastStatusCode: 200,
  lastError: null,
  lastResponse: "ok",
  lastDurationMs: 12,
  ...extra,
});
const created = { ...webhook(3, { types: ["pet.created", "order.created"], description: "CI" }), secret: SECRET };

describe("webhooks add", () => {
  it("sends the endpoint, prints the secret alone on stdout and the rest on stderr", async () => {
    const result = await run(["webhooks", "add", "https://example.com/hook/3", "--types", "pet.created,order.created", "--description", "CI"], [
      { status: 201, headers: { location: "/v1/webhooks/3" }, body: created },
    ]);
    expect(result.code).toBe(0);
    expect(result.requests[0]).toMatchObject({ method: "POST", path: "/v1/webhooks", body: { url: "https://example.com/hook/3", types: ["pet.created", "order.created"], description: "CI" } });
    expect(result.stdout).toBe(`${SECRET}\n`);
    expect(result.stderr).toBe(
      "Added webhook 3 → https://example.com/hook/3 (pet.created, order.created).\nWarning: save the signing secret now: it is not shown again.\n",
    );
    expect(result.stderr).not.toContain(SECRET);
  });

  it("--json prints the whole endpoint, secret included; --json fields and --jq pick from it", async () => {
    const answer = [{ status: 201, headers: { location: "/v1/webhooks/3" }, body: created }];
    const whole = await run(["webhooks", "add", "https://example.com/hook/3", "--json"], answer);
    expect(JSON.parse(whole.stdout)).toEqual(created);
    const some = await run(["webhooks", "add", "https://example.com/hook/3", "--json", "id,secret"], answer);
    expect(JSON.parse(some.stdout)).toEqual({ id: 3, secret: SECRET });
    const jq = await run(["webhooks", "add", "https://example.com/hook/3", "--jq", ".secret"], answer);
    expect(jq.stdout).toBe(`${SECRET}\n`);
  });

  it.each([
    { argv: ["ftp://example.com/hook"], message: "Error: <url> must be an http or https URL, not ftp:" },
    { argv: ["example.com/hook"], message: "Error: <url> must be an absolute http or https URL" },
    { argv: ["https://user:pw@example.com/hook"], message: "Error: <url> must not carry a user name or password" },
    { argv: ["https://example.com/hook", "--types", "pet.created,pet.sold"], message: `Error: --types: unknown event type "pet.sold"; the types are ${WEBHOOK_EVENT_TYPES.join(", ")}` },
    { argv: ["https://example.com/hook", "--types", "pet.created,,order.created"], message: "Error: --types has an empty item" },
    { argv: ["https://example.com/hook", "--description", "x".repeat(501)], message: "Error: --description must be at most 500 characters" },
    { argv: ["https://example.com/hook", "--json", "id,nope"], message: "unknown field nope" },
  ])("refuses $argv before sending anything, with exit 2", async ({ argv, message }) => {
    const result = await run(["webhooks", "add", ...argv], []);
    expect(result).toMatchObject({ code: 2, stdout: "", requests: [] });
    expect(result.stderr).toContain(message);
  });
});

describe("server errors map to the exit codes every noun uses", () => {
  it.each([
    { argv: ["webhooks", "get", "9"], status: 404, code: "not_found", exit: 4 },
    { argv: ["webhooks", "add", "https://example.com/h"], status: 403, code: "forbidden", exit: 3 },
    { argv: ["webhooks", "list"], status: 401, code: "unauthorized", exit: 3 },
    { argv: ["webhooks", "add", "http://127.0.0.1/h"], status: 400, code: "invalid_body", exit: 1 },
    { argv: ["webhooks", "deliveries", "9"], status: 404, code: "not_found", exit: 4 },
    { argv: ["webhooks", "retry", "3", "99"], status: 404, code: "not_found", exit: 4 },
    { argv: ["webhooks", "remove", "9", "--yes"], status: 404, code: "not_found", exit: 4 },
  ])("$argv: HTTP $status → exit $exit", async ({ argv, status, code, exit }) => {
    const result = await run([...argv, "--retries", "0"], [apiError(status, code, "it went wrong")]);
    expect(result.code).toBe(exit);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n")[0]).toBe(`Error: it went wrong (${code}, HTTP ${status})`);
  });

  it("a 403 says which key manages webhooks", async () => {
    const result = await run(["webhooks", "list"], [apiError(403, "forbidden", "this operation needs an admin API key")]);
    expect(result).toMatchObject({ code: 3, stdout: "" });
    expect(result.stderr).toBe(
      "Error: this operation needs an admin API key (forbidden, HTTP 403)\n" +
        "Managing webhooks needs an admin key: the server's PETSTORE_ADMIN_KEY, or the bootstrap key printed by its first `petstore serve`" +
        " (keys made with `keys create` are never admin keys).\n",
    );
  });
});

describe("webhooks list and get", () => {
  it("prints tab-separated lines piped, and follows Link pages with --all", async () => {
    const script: Script = (request) =>
      request.path.includes("cursor=")
        ? { status: 200, body: [webhook(2, { types: [], description: "two\tparts", enabled: false })] }
        : { status: 200, headers: { link: `<${BASE_URL}/webhooks?cursor=abc&limit=100>; rel="next"` }, body: [webhook(1)] };
    const result = await run(["webhooks", "list", "--all"], script);
    expect(result.code).toBe(0);
    expect(result.requests.map((r) => r.path)).toEqual(["/v1/webhooks?limit=100", "/v1/webhooks?cursor=abc&limit=100"]);
    expect(result.stdout).toBe(
      "1\thttps://example.com/hook/1\tpet.created\ttrue\t\t2030-01-02T03:04:05.000Z\t2030-01-02T03:04:05.000Z\n" +
        "2\thttps://example.com/hook/2\t\tfalse\ttwo parts\t2030-01-02T03:04:05.000Z\t2030-01-02T03:04:05.000Z\n",
    );
    expect(result.stderr).toBe("");
  });

  it("says on stderr that more exist when --limit cut the list", async () => {
    const result = await run(["webhooks", "list", "--limit", "1"], [
      { status: 200, headers: { link: `<${BASE_URL}/webhooks?cursor=abc&limit=1>; rel="next"` }, body: [webhook(1)] },
    ]);
    expect(result.requests[0]?.path).toBe("/v1/webhooks?limit=1");
    expect(result.stderr).toBe("Showing the first 1 endpoint; more exist: raise --limit, or use --all.\n");
  });

  it("prints a table on a terminal", async () => {
    const result = await run(["webhooks", "list"], [{ status: 200, body: [webhook(1), webhook(2, { types: [], enabled: false })] }], { isStdoutTTY: true, columns: 120 });
    const lines = result.stdout.split("\n");
    expect(lines[0]).toMatch(/^ID\s+URL\s+TYPES\s+STATE\s+DESCRIPTION\s+CREATED$/);
    expect(lines[1]).toMatch(/^1\s+https:\/\/example\.com\/hook\/1\s+pet\.created\s+enabled\s+2030-01-02 03:04:05Z$/);
    expect(lines[2]).toMatch(/^2\s+https:\/\/example\.com\/hook\/2\s+all\s+disabled\s+/);
  });

  it("get --json prints the object, never a secret", async () => {
    const result = await run(["webhooks", "get", "1", "--json"], [{ status: 200, body: webhook(1) }]);
    expect(result.requests[0]?.path).toBe("/v1/webhooks/1");
    expect(JSON.parse(result.stdout)).toEqual(webhook(1));
  });

  it.each([["0"], ["abc"], ["1.5"], ["-3"]])("refuses the id %s with exit 2", async (id) => {
    const result = await run(["webhooks", "get", id], []);
    expect(result).toMatchObject({ code: 2, stdout: "", requests: [] });
    expect(result.stderr).toContain("<id> must be an integer from 1");
  });
});

describe("webhooks update", () => {
  it("sends a merge patch of what the flags say and prints the endpoint", async () => {
    const result = await run(["webhooks", "update", "3", "--url", "http://example.com/new", "--types", "", "--description", "", "--disable"], [
      { status: 200, body: webhook(3, { url: "http://example.com/new", types: [], enabled: false }) },
    ]);
    expect(result.code).toBe(0);
    expect(result.requests[0]).toMatchObject({
      method: "PATCH",
      path: "/v1/webhooks/3",
      headers: { "content-type": "application/merge-patch+json" },
      body: { url: "http://example.com/new", types: [], description: null, enabled: false },
    });
    expect(result.stdout).toBe("3\thttp://example.com/new\t\tfalse\t\t2030-01-02T03:04:05.000Z\t2030-01-02T03:04:05.000Z\n");
  });

  it.each([
    { argv: ["3", "--enable", "--disable"], message: "--enable and --disable say different things" },
    { argv: ["3"], message: "nothing to change" },
    { argv: ["3", "--url", "mailto:a@example.com"], message: "--url must be an http or https URL, not mailto:" },
    { argv: ["3", "--types", "order.shipped"], message: 'unknown event type "order.shipped"' },
    { argv: ["x", "--enable"], message: "<id> must be an integer" },
  ])("refuses $argv with exit 2 before sending", async ({ argv, message }) => {
    const result = await run(["webhooks", "update", ...argv], []);
    expect(result).toMatchObject({ code: 2, stdout: "", requests: [] });
    expect(result.stderr).toContain(message);
  });
});

describe("webhooks remove", () => {
  it("needs --yes without a terminal, and sends nothing", async () => {
    const result = await run(["webhooks", "remove", "3"], []);
    expect(result).toMatchObject({ code: 2, stdout: "", requests: [] });
    expect(result.stderr).toContain("there is no terminal to ask on; add --yes to remove endpoint 3");
  });

  it("asks on a terminal, naming the endpoint; no keeps it", async () => {
    const script = [{ status: 200, body: webhook(3) }, { status: 204 }];
    const no = await run(["webhooks", "remove", "3"], script, { ...TERMINAL, answers: [false] });
    expect(no.questions).toEqual(["Remove webhook 3 → https://example.com/hook/3? Its pending deliveries are dropped."]);
    expect(no).toMatchObject({ code: 2, stderr: "Not removed: webhook 3.\n" });
    expect(no.requests.map((r) => r.method)).toEqual(["GET"]);
    const yes = await run(["webhooks", "remove", "3"], script, { ...TERMINAL, answers: [true] });
    expect(yes).toMatchObject({ code: 0, stdout: "", stderr: "Removed webhook 3.\n" });
    expect(yes.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/webhooks/3", "DELETE /v1/webhooks/3"]);
  });

  it("--yes: one DELETE, silent for a script", async () => {
    const result = await run(["webhooks", "rm", "3", "--yes"], [{ status: 204 }]);
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(result.requests.map((r) => r.method)).toEqual(["DELETE"]);
  });
});

describe("webhooks rotate-secret", () => {
  it("prints the new secret alone on stdout, as add does", async () => {
    const result = await run(["webhooks", "rotate-secret", "3", "--grace", "1h"], [{ status: 200, body: created }]);
    expect(result.requests[0]).toMatchObject({ method: "POST", path: "/v1/webhooks/3/rotate-secret", body: { graceSeconds: 3600 } });
    expect(result.stdout).toBe(`${SECRET}\n`);
    expect(result.stderr).toContain("Rotated the signing secret of webhook 3");
    expect(result.stderr).toContain("The old secret keeps signing beside the new one for 1 h.\n");
    expect(result.stderr).toContain("Warning: save the signing secret now: it is not shown again.\n");
  });

  it("says when the old secret stops: the server's 24 h by default, at once with --grace 0s", async () => {
    const byDefault = await run(["webhooks", "rotate-secret", "3"], [{ status: 200, body: created }]);
    expect(byDefault.requests[0]?.body).toEqual({});
    expect(byDefault.stderr).toContain("The old secret keeps signing beside the new one for 1 d.\n");
    const now = await run(["webhooks", "rotate-secret", "3", "--grace", "0s"], [{ status: 200, body: created }]);
    expect(now.requests[0]?.body).toEqual({ graceSeconds: 0 });
    expect(now.stderr).toContain("The old secret no longer signs.\n");
  });

  it("refuses a grace over 7 days with exit 2", async () => {
    const result = await run(["webhooks", "rotate-secret", "3", "--grace", "8d"], []);
    expect(result).toMatchObject({ code: 2, requests: [] });
  });
});

describe("webhooks test, deliveries and retry", () => {
  it("test POSTs to the endpoint's test and prints the delivery", async () => {
    const due = delivery(7, { eventId: null, type: "webhook.test", status: "pending", attempts: 0, lastAttemptAt: null, nextAttemptAt: "2030-01-02T03:04:05.000Z", lastStatusCode: null, lastResponse: null, lastDurationMs: null });
    const result = await run(["webhooks", "test", "3"], [{ status: 200, body: due }], { isStderrTTY: true });
    expect(result.requests[0]).toMatchObject({ method: "POST", path: "/v1/webhooks/3/test" });
    expect(result.stdout).toBe("7\t\twebhook.test\tpending\t0\t\t\t\t2030-01-02T03:04:05.000Z\t2030-01-02T03:04:05.000Z\t\n");
    expect(result.stderr).toBe("Sent webhook.test to webhook 3 (delivery 7); `petstore webhooks deliveries 3` shows how it went.\n");
  });

  it("deliveries --status failed --all sends the filter and follows the pages", async () => {
    const failed = (id: number) => delivery(id, { status: "failed", attempts: 9, lastStatusCode: 500, lastError: "HTTP 500" });
    const script: Script = (request) =>
      request.path.includes("cursor=")
        ? { status: 200, body: [failed(1)] }
        : { status: 200, headers: { link: `<${BASE_URL}/webhooks/3/deliveries?status=failed&cursor=n&limit=100>; rel="next"` }, body: [failed(2)] };
    const result = await run(["webhooks", "deliveries", "3", "--status", "failed", "--all", "--json", "id,status"], script);
    expect(result.requests.map((r) => r.path)).toEqual(["/v1/webhooks/3/deliveries?status=failed&limit=100", "/v1/webhooks/3/deliveries?status=failed&cursor=n&limit=100"]);
    expect(JSON.parse(result.stdout)).toEqual([{ id: 2, status: "failed" }, { id: 1, status: "failed" }]);
  });

  it("deliveries on a terminal: a table", async () => {
    const result = await run(["webhooks", "deliveries", "3"], [{ status: 200, body: [delivery(1)] }], { isStdoutTTY: true, columns: 140 });
    expect(result.stdout.split("\n")[0]).toMatch(/^ID\s+EVENT\s+TYPE\s+STATUS\s+ATTEMPTS\s+LAST RESULT\s+LAST ATTEMPT\s+NEXT ATTEMPT$/);
    expect(result.stdout.split("\n")[1]).toMatch(/^1\s+41\s+pet\.created\s+succeeded\s+1\s+200 in 12 ms\s+2030-01-02 03:04:06Z\s+-$/);
  });

  it("refuses an unknown --status with exit 2, naming the statuses", async () => {
    const result = await run(["webhooks", "deliveries", "3", "--status", "lost"], []);
    expect(result).toMatchObject({ code: 2, stdout: "", requests: [] });
    expect(result.stderr).toContain("Allowed choices are pending, succeeded, failed.");
  });

  it("retry POSTs the delivery's retry; a bad delivery id is exit 2", async () => {
    const result = await run(["webhooks", "retry", "3", "41"], [{ status: 200, body: delivery(41, { status: "pending", nextAttemptAt: "2030-01-02T03:04:05.000Z" }) }]);
    expect(result).toMatchObject({ code: 0 });
    expect(result.requests[0]).toMatchObject({ method: "POST", path: "/v1/webhooks/3/deliveries/41/retry" });
    const bad = await run(["webhooks", "retry", "3", "x"], []);
    expect(bad).toMatchObject({ code: 2, requests: [] });
    expect(bad.stderr).toContain("<deliveryId> must be an integer");
  });
});
