// The verbs in-process against the API in memory: exit codes, stdout and stderr for every kind
// of answer, without a subprocess. Each scripted answer is one the OpenAPI document allows.
import { stripVTControlCharacters } from "node:util";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deprecationNotice } from "../../src/cli/commands/pets/get.js";
import { runList } from "../../src/cli/commands/pets/list.js";
import { main } from "../../src/cli/main.js";
import { resolveSettings } from "../../src/cli/settings.js";
import { apiError, GET_PET_DEPRECATION, inMemoryApi, type Script, type ScriptedAnswer } from "./helpers/in-memory-api.js";
import { createTestContext, memoryStateStore, type TestContextOptions } from "./helpers/test-context.js";

const BASE_URL = "http://127.0.0.1:3999/v1";

async function run(argv: string[], script: Script, options: TestContextOptions = {}) {
  const api = inMemoryApi(script);
  const test = createTestContext({
    ...options,
    api,
    env: { PETSTORE_BASE_URL: BASE_URL, PETSTORE_API_KEY: "ps_test", PETSTORE_CONFIG: "/nonexistent/c.json", ...options.env },
  });
  const code = await main(argv, test.ctx);
  return { code, stdout: test.stdout(), stderr: test.stderr(), sleeps: test.sleeps, requests: api.requests, questions: test.questions, pagers: test.pagers };
}

const pet = (id: number) => ({ id, name: `pet${id}`, categoryId: 1, status: "available" });
const ALL_SCOPES = ["pets:read", "pets:write", "orders:read", "orders:write", "events:read"];
const keyView = {
  id: "key_1", prefix: "ps_abc123", plan: "pro", name: "ci", admin: false, scopes: ALL_SCOPES, limits: { perMinute: 300, perDay: 10000 },
  createdAt: "2030-01-02T03:04:05.000Z", revokedAt: null, lastUsedAt: null,
};
const tooMany = (seconds: string, code = "rate_limited") => apiError(429, code, "slow down", { "retry-after": seconds });

describe("exit codes and error lines", () => {
  it.each([
    { argv: ["pets", "list"], status: 400, code: "invalid_parameter", exit: 1 },
    { argv: ["pets", "list"], status: 401, code: "unauthorized", exit: 3 },
    { argv: ["keys", "list"], status: 403, code: "forbidden", exit: 3 },
    { argv: ["pets", "get", "7"], status: 404, code: "not_found", exit: 4, headers: GET_PET_DEPRECATION },
    { argv: ["pets", "list"], status: 429, code: "rate_limited", exit: 5, headers: { "retry-after": "1" } },
    { argv: ["pets", "list"], status: 500, code: "internal_error", exit: 1 },
    { argv: ["pets", "list"], status: 503, code: "storage_unavailable", exit: 1, headers: { "retry-after": "1" } },
  ])("HTTP $status → exit $exit", async ({ argv, status, code, exit, headers }) => {
    const result = await run([...argv, "--retries", "0"], [apiError(status, code, "it went wrong", headers)]);
    expect(result.code).toBe(exit);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n").find((line) => line.startsWith("Error: "))).toBe(`Error: it went wrong (${code}, HTTP ${status})`);
  });

  it("prints the Error object as JSON on stderr with --json, and no hint", async () => {
    const result = await run(["pets", "list", "--json"], [apiError(401, "unauthorized", "the API key is not valid")]);
    expect(result).toMatchObject({ code: 3, stdout: "" });
    expect(result.stderr).toBe('{"code":"unauthorized","message":"the API key is not valid","status":401}\n');
  });

  it("hints how to set a key on 401", async () => {
    const result = await run(["pets", "list"], [apiError(401, "unauthorized", "missing API key")], { env: { PETSTORE_API_KEY: "" } });
    expect(result.requests[0]?.headers.authorization).toBeUndefined();
    expect(result.stderr).toBe(
      "Error: missing API key (unauthorized, HTTP 401)\n" +
        "No API key was sent. Set one with --api-key, PETSTORE_API_KEY, or `petstore config set api-key -` (reads the key from stdin).\n",
    );
  });

  it("says when to retry after the retries on 429 are spent", async () => {
    const result = await run(["pets", "list", "--retries", "2"], [tooMany("4")]);
    expect(result.code).toBe(5);
    expect(result.sleeps).toEqual([4000, 4000]);
    expect(result.stderr).toBe(
      "Retrying in 4.0 s after HTTP 429 (retry 1 of 2)\nRetrying in 4.0 s after HTTP 429 (retry 2 of 2)\n" +
        "Error: slow down (rate_limited, HTTP 429)\nStill rate-limited after 2 retries; retry in 4 s.\n",
    );
  });

  it("says so when a Retry-After is past --max-wait: no retry made, and retryAfter in the JSON error", async () => {
    const result = await run(["pets", "list", "--max-wait", "3", "--json"], [tooMany("4")]);
    expect(result).toMatchObject({ code: 5, sleeps: [] });
    expect(JSON.parse(result.stderr)).toEqual({ code: "rate_limited", message: "slow down", status: 429, retryAfter: 4 });
    const plain = await run(["pets", "list", "--max-wait", "3"], [tooMany("4")]);
    expect(plain.stderr).toBe("Error: slow down (rate_limited, HTTP 429)\nRate-limited; retry in 4 s.\n");
  });

  it("announces a wait over a second even when piped", async () => {
    const result = await run(["pets", "list"], [tooMany("2"), { status: 200, body: [pet(1)] }]);
    expect(result).toMatchObject({ code: 0, stderr: "Retrying in 2.0 s after HTTP 429 (retry 1 of 3)\n", sleeps: [2000] });
  });

  it("retries a 429 after Retry-After and succeeds with exit 0, silently when piped", async () => {
    const result = await run(["pets", "list"], [tooMany("1"), { status: 200, body: [pet(1)] }]);
    expect(result).toMatchObject({ code: 0, stdout: "1\tpet1\t1\tavailable\n", stderr: "", sleeps: [1000] });
  });

  it("shows the retry on a terminal's stderr, clearing a progress line first", async () => {
    const result = await run(["pets", "list"], [tooMany("1"), { status: 200, body: [pet(1)] }], { isStderrTTY: true });
    expect(result.stderr).toBe("\r\u001b[2KRetrying in 1.0 s after HTTP 429 (retry 1 of 3)\n");
  });

  it("logs where the settings came from, each request and answer with its ETag, and the retries with --verbose", async () => {
    const result = await run(["pets", "list", "--verbose"], [tooMany("1"), { status: 200, body: [] }]);
    expect(result.stderr).toMatch(
      new RegExp(
        `^\\* base URL ${BASE_URL} from the environment; API key from the environment\n` +
          `> GET ${BASE_URL}/pets\\?limit=30\n< HTTP 429 \\(\\d+ ms\\), quota \\d+/60 left, resets at [\\d:]{8}\n` +
          `Retrying in 1\\.0 s after HTTP 429 \\(retry 1 of 3\\)\n` +
          `> GET ${BASE_URL}/pets\\?limit=30\n< HTTP 200 \\(\\d+ ms\\), quota \\d+/60 left, resets at [\\d:]{8}\n  ETag: "page-scripted"\n$`,
      ),
    );
    expect(result.stderr).not.toContain("ps_test");
  });
});

describe("pets list", () => {
  // A server holding 250 pets that honours limit (up to 100) and hands out cursors.
  const pages = (request: { path: string }): ScriptedAnswer => {
    const params = new URL(request.path, "http://x").searchParams;
    const cursor = Number(params.get("cursor") ?? "0");
    const limit = Number(params.get("limit") ?? "20");
    const end = Math.min(250, cursor + limit);
    const link = end < 250 ? { link: `<${BASE_URL}/pets?limit=${limit}&cursor=${end}>; rel="next"` } : undefined;
    return { status: 200, headers: link, body: Array.from({ length: end - cursor }, (_, i) => pet(cursor + i + 1)) };
  };
  const paths = (result: { requests: { path: string }[] }) => result.requests.map((request) => request.path);

  it("--limit 250 is 250 pets, fetched 100 a page, the last page asking only for the rest", async () => {
    const result = await run(["pets", "list", "--limit", "250"], pages);
    expect(result.stdout.split("\n")).toHaveLength(251);
    expect(paths(result)).toEqual(["/v1/pets?limit=100", "/v1/pets?limit=100&cursor=100", "/v1/pets?limit=50&cursor=200"]);
    expect(result.stderr).toBe("");
  });

  it("--all follows rel=next to the last page, 100 a page", async () => {
    const result = await run(["pets", "list", "--all", "--status", "sold"], pages);
    expect(result.stdout.split("\n")).toHaveLength(251);
    expect(paths(result)).toEqual(["/v1/pets?status=sold&limit=100", "/v1/pets?limit=100&cursor=100", "/v1/pets?limit=100&cursor=200"]);
  });

  it("asks for 30 pets by default, as gh does", async () => {
    const result = await run(["pets", "list"], pages);
    expect(paths(result)).toEqual(["/v1/pets?limit=30"]);
  });

  it("refuses --all with --limit: they say different things", async () => {
    const result = await run(["pets", "list", "--all", "--limit", "5"], pages);
    expect(result).toMatchObject({ code: 2, requests: [] });
    expect(result.stderr).toMatch(/^Error: --all and --limit say different things: give one\n/);
  });

  it("shows progress on stderr when stderr is a TTY, and clears it", async () => {
    const result = await run(["pets", "list", "--limit", "250"], pages, { isStderrTTY: true });
    expect(result.stderr).toBe(
      "\r\u001b[2KFetched 100 pets (1 page)…\r\u001b[2KFetched 200 pets (2 pages)…\r\u001b[2K",
    );
  });

  it.each([
    ["a person", { isStdoutTTY: true }],
    ["a script", {}],
  ])("tells %s on stderr when more pets exist than were printed", async (_who, terminal: { isStdoutTTY?: boolean }) => {
    const result = await run(["pets", "list", "--limit", "1", "--no-color"], pages, terminal);
    expect(result.requests).toHaveLength(1);
    expect(result.stdout).toBe(terminal.isStdoutTTY ? "ID  NAME  CATEGORY  STATUS\n1   pet1  1         available\n" : "1\tpet1\t1\tavailable\n");
    expect(result.stderr).toBe("Showing the first 1 pet; more exist: raise --limit, or use --all.\n");
  });

  it("tells a person when there are no pets, and prints nothing on stdout", async () => {
    const result = await run(["pets", "list", "--status", "sold"], [{ status: 200, body: [] }], { isStdoutTTY: true, isStderrTTY: true });
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "No pets found.\n" });
  });

  it("says nothing of an empty list to a script, or with --json", async () => {
    for (const argv of [["pets", "list"], ["pets", "list", "--json"]]) {
      const result = await run(argv, [{ status: 200, body: [] }], { isStdoutTTY: argv.length === 3, isStderrTTY: true });
      expect(result.stderr).toBe("");
    }
  });

  it("prints a JSON array of every page with --all --json", async () => {
    const result = await run(["pets", "list", "--all", "--json"], pages);
    expect(JSON.parse(result.stdout)).toEqual(Array.from({ length: 250 }, (_, i) => pet(i + 1)));
  });

  it("refuses to follow a next link to another origin with the key", async () => {
    const result = await run(["pets", "list", "--all"], [{ status: 200, headers: { link: '<http://evil.example/v1/pets?cursor=1>; rel="next"' }, body: [pet(1)] }]);
    expect(result.code).toBe(1);
    expect(result.requests).toHaveLength(1);
    expect(result.stderr).toMatch(/^Error: refusing to follow http:\/\/evil\.example/);
  });
});

describe("pets get", () => {
  const notice =
    "Warning: `pets get` (GET /pets/{id}) is deprecated; it goes away on 2030-12-05.\n";
  const found = { status: 200, headers: GET_PET_DEPRECATION, body: pet(7) };
  const DAY = 86_400_000;

  it("prints the pet and one deprecation notice, one line naming the date, even after a retry", async () => {
    const result = await run(["pets", "get", "7"], [apiError(429, "rate_limited", "wait", { ...GET_PET_DEPRECATION, "retry-after": "1" }), found]);
    expect(result).toMatchObject({ code: 0, stdout: "7\tpet7\t1\tavailable\n", stderr: notice });
  });

  it("shows the notice at most once a day per base URL, remembered in the state", async () => {
    const state = memoryStateStore();
    let now = Date.UTC(2030, 0, 1, 9, 0, 0);
    const get = (env: Record<string, string> = {}) => run(["pets", "get", "7"], [found], { state, now: () => now, env });
    expect((await get()).stderr).toBe(notice);
    expect(state.current.deprecationNoticeShown).toEqual({ [BASE_URL]: now });
    now += DAY - 1;
    expect((await get()).stderr).toBe("");
    expect((await get({ PETSTORE_BASE_URL: "http://127.0.0.1:4000/v1", PETSTORE_API_KEY: "ps_other" })).stderr).toBe(notice);
    now += 1;
    expect((await get()).stderr).toBe(notice);
  });

  it("never shows it on a 404, and not when turned off by the environment or the config", async () => {
    const missing = await run(["pets", "get", "7"], [apiError(404, "not_found", "no pet with id 7", GET_PET_DEPRECATION)]);
    expect(missing.stderr).toBe("Error: no pet with id 7 (not_found, HTTP 404)\n");
    expect((await run(["pets", "get", "7"], [found], { env: { PETSTORE_NO_DEPRECATION_NOTICE: "1" } })).stderr).toBe("");
    const dir = await mkdtemp(join(tmpdir(), "petstore-notice-"));
    const config = join(dir, "config.json");
    await writeFile(config, JSON.stringify({ deprecationNotices: "off" }));
    expect((await run(["pets", "get", "7"], [found], { env: { PETSTORE_CONFIG: config } })).stderr).toBe("");
  });

  it("prints the Pet object with --json; the notice stays on stderr", async () => {
    const result = await run(["pets", "get", "7", "--json"], [{ status: 200, headers: GET_PET_DEPRECATION, body: pet(7) }]);
    expect(JSON.parse(result.stdout)).toEqual(pet(7));
    expect(result.stderr).toBe(notice);
  });

  it("shows the pet's ETag with --verbose on stderr, never on stdout, with --json or not", async () => {
    const withEtag = { ...found, headers: { ...GET_PET_DEPRECATION, etag: '"pet-7-2"' } };
    for (const argv of [["pets", "get", "7", "--json", "--verbose"], ["pets", "get", "7", "--verbose"]]) {
      const result = await run(argv, [withEtag]);
      expect(result.stderr).toMatch(/\n< HTTP 200 [^\n]*\n {2}ETag: "pet-7-2"\n/);
      expect(result.stdout).not.toContain("pet-7-2");
    }
    expect(JSON.parse((await run(["pets", "get", "7", "--json", "--verbose"], [withEtag])).stdout)).toEqual(pet(7));
  });
});

describe("pets add and keys", () => {
  it("posts the new pet and prints the created one", async () => {
    const created = { ...pet(9), categoryId: 3, status: "pending", name: "Rex" };
    const result = await run(["pets", "add", "--name", "Rex", "--category", "3", "--status", "pending"], [{ status: 201, headers: { location: "/v1/pets/9" }, body: created }]);
    expect(result.requests[0]?.body).toEqual({ name: "Rex", categoryId: 3, status: "pending" });
    expect(result.stdout).toBe("9\tRex\t3\tpending\n");
  });

  it("accepts a name of 150 emoji, as the server counts characters (code points), not UTF-16 units", async () => {
    const name = "🐶".repeat(150);
    const result = await run(["pets", "add", "--name", name, "--category", "1"], [{ status: 201, headers: { location: "/v1/pets/1" }, body: { ...pet(1), name } }]);
    expect(result.code).toBe(0);
    expect(result.requests[0]?.body).toEqual({ name, categoryId: 1 });
  });

  it("refuses a name of 201 characters before any request", async () => {
    const result = await run(["pets", "add", "--name", "é".repeat(201), "--category", "1"], []);
    expect(result).toMatchObject({ code: 2, requests: [] });
    expect(result.stderr).toMatch(/^Error: --name must be at most 200 characters\n/);
  });

  it("posts an enterprise key with its limits", async () => {
    // A secret of the documented form, `ps_` and 40 base62 characters: the fake's answers are checked against the document.
    const secret = `ps_new${"0123456789".repeat(3)}abcdefg`;
    const created = { id: "key_1", key: secret, prefix: secret.slice(0, 9), plan: "enterprise", name: "big", scopes: ["pets:read", "events:read"], limits: { perMinute: 5, perDay: 9 }, createdAt: "2030-01-01T00:00:00.000Z" };
    const argv = ["keys", "create", "--plan", "enterprise", "--name", "big", "--per-minute", "5", "--per-day", "9", "--scopes", "events:read,pets:read,pets:read"];
    const result = await run(argv, [{ status: 201, headers: { location: "/v1/keys/key_1" }, body: created }]);
    // The scopes as the server takes them: each once, in their canonical order.
    expect(result.requests[0]?.body).toEqual({ plan: "enterprise", name: "big", perMinute: 5, perDay: 9, scopes: ["pets:read", "events:read"] });
    expect(result.stdout).toBe(`${secret}\n`);
  });

  it("lists keys, and tells a person when there are none", async () => {
    const some = await run(["keys", "list"], [{ status: 200, body: [keyView] }]);
    expect(some.stdout).toMatch(/^key_1\tps_abc123\tpro\tci\t300\t10000\tfalse\t/);
    const none = await run(["keys", "list"], [{ status: 200, body: [] }], { isStdoutTTY: true });
    expect(none).toMatchObject({ code: 0, stdout: "", stderr: "No keys found.\n" });
  });
});

describe("pets delete asks first", () => {
  const TERMINAL = { isStdinTTY: true, isStderrTTY: true };
  const deleteScript = (request: { method: string }): ScriptedAnswer =>
    request.method === "GET" ? { status: 200, body: pet(7), headers: GET_PET_DEPRECATION } : { status: 204 };
  const methods = (requests: { method: string; path: string }[]) => requests.map((request) => `${request.method} ${request.path}`);

  it("without a terminal, needs --yes: exit 2 and nothing sent", async () => {
    const result = await run(["pets", "delete", "7"], deleteScript, { isStderrTTY: true });
    expect(result).toMatchObject({ code: 2, stdout: "", requests: [] });
    expect(stripVTControlCharacters(result.stderr)).toMatch(/^Error: pets delete asks before it deletes, and there is no terminal to ask on; add --yes to delete pet 7\n/);
  });

  it("with --yes, sends one DELETE and is silent when piped", async () => {
    const result = await run(["pets", "delete", "7", "--yes"], deleteScript);
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(methods(result.requests)).toEqual(["DELETE /v1/pets/7"]);
  });

  it("on a terminal, names the pet and deletes on yes; on no, sends nothing more and exits 2", async () => {
    const yes = await run(["pets", "delete", "7"], deleteScript, { ...TERMINAL, answers: [true] });
    expect(yes.questions).toEqual(['Delete pet 7 "pet7" (category 1, available)? This cannot be undone.']);
    expect(methods(yes.requests)).toEqual(["GET /v1/pets/7", "DELETE /v1/pets/7"]);
    expect(yes).toMatchObject({ code: 0, stderr: "Deleted pet 7.\n" });
    const no = await run(["pets", "delete", "7"], deleteScript, { ...TERMINAL, answers: [false] });
    expect(methods(no.requests)).toEqual(["GET /v1/pets/7"]);
    expect(no).toMatchObject({ code: 2, stdout: "", stderr: "Not deleted: pet 7.\n" });
  });

  it("exits 4 for an unknown pet, and exits 2 for a bad id without sending", async () => {
    const gone = await run(["pets", "delete", "7", "--yes"], [apiError(404, "not_found", "no pet with id 7")]);
    expect(gone).toMatchObject({ code: 4, stderr: "Error: no pet with id 7 (not_found, HTTP 404)\n" });
    const bad = await run(["pets", "delete", "seven", "--yes"], deleteScript);
    expect(bad).toMatchObject({ code: 2, requests: [] });
  });
});

describe("pets delete --if-match, and a retried DELETE", () => {
  it("sends If-Match, quoting a bare ETag the shell unquoted", async () => {
    const result = await run(["pets", "delete", "7", "--yes", "--if-match", "pet-7-2"], [{ status: 204 }]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.requests[0]?.headers["if-match"]).toBe('"pet-7-2"');
  });

  it("exits 1 on 412, saying the pet changed since and how to read it again", async () => {
    const result = await run(["pets", "delete", "7", "--yes", "--if-match", '"pet-7-1"'], [apiError(412, "precondition_failed", "pet 7 has changed")]);
    expect(result).toMatchObject({ code: 1, stdout: "" });
    expect(result.stderr).toBe(
      "Error: pet 7 has changed (precondition_failed, HTTP 412)\n" +
        "The pet changed since that ETag was read. To go on, fetch it again (`petstore pets get 7 --verbose` shows its ETag) and repeat with the new ETag.\n",
    );
  });

  it("reports a 404 after a retry that followed a lost answer as deleted, with a notice, exit 0", async () => {
    const busy = apiError(503, "storage_unavailable", "busy", { "retry-after": "1" });
    const result = await run(["pets", "delete", "7", "--yes"], [busy, apiError(404, "not_found", "no pet with id 7")]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      "Notice: pet 7 was gone when a retry of the DELETE arrived: the first attempt got no answer and most likely deleted it.\n",
    );
  });

  it("still exits 4 for a 404 when no earlier attempt can have deleted it (a 429 did nothing)", async () => {
    const result = await run(["pets", "delete", "7", "--yes"], [tooMany("0"), apiError(404, "not_found", "no pet with id 7")]);
    expect(result).toMatchObject({ code: 4, stderr: "Error: no pet with id 7 (not_found, HTTP 404)\n" });
  });
});

describe("pets update", () => {
  const updated = { id: 7, name: "Max", categoryId: 2, status: "sold" };

  it("sends only the fields given as a merge patch, and prints the pet as pets get does", async () => {
    const result = await run(["pets", "update", "7", "--status", "sold", "--category", "2"], [{ status: 200, body: updated }]);
    expect(result).toMatchObject({ code: 0, stdout: "7\tMax\t2\tsold\n", stderr: "" });
    expect(result.requests).toEqual([
      expect.objectContaining({ method: "PATCH", path: "/v1/pets/7", body: { categoryId: 2, status: "sold" } }),
    ]);
    expect(result.requests[0]?.headers).toMatchObject({ "content-type": "application/merge-patch+json" });
    expect(result.requests[0]?.headers["if-match"]).toBeUndefined();
    expect(result.requests[0]?.headers["idempotency-key"]).toBeUndefined();
  });

  it("prints a table on a terminal and the Pet object with --json; --verbose shows the new ETag on stderr only", async () => {
    const table = await run(["pets", "update", "7", "--name", "Max"], [{ status: 200, body: updated }], { isStdoutTTY: true });
    expect(stripVTControlCharacters(table.stdout)).toMatch(/ID\s+NAME\s+CATEGORY\s+STATUS[\s\S]*7\s+Max\s+2\s+sold/);
    const json = await run(["pets", "update", "7", "--name", "Max", "--json", "--verbose"], [{ status: 200, body: updated }]);
    expect(JSON.parse(json.stdout)).toEqual(updated);
    expect(json.stderr).toContain('  ETag: "pet-7-1"\n');
  });

  it("sends --if-match as If-Match, and exits 1 on 412 with the hint to fetch it again", async () => {
    const ok = await run(["pets", "update", "7", "--name", "Max", "--if-match", '"pet-7-1"'], [{ status: 200, body: updated }]);
    expect(ok.requests[0]?.headers["if-match"]).toBe('"pet-7-1"');
    const stale = await run(["pets", "update", "7", "--name", "Max", "--if-match", "pet-7-1"], [apiError(412, "precondition_failed", "pet 7 has changed")]);
    expect(stale).toMatchObject({ code: 1, stdout: "" });
    expect(stale.stderr).toContain("Error: pet 7 has changed (precondition_failed, HTTP 412)\nThe pet changed since that ETag was read.");
  });

  it.each([
    { argv: [], message: "pets update needs something to change: give --name, --category or --status (or several)" },
    { argv: ["--name", " "], message: "--name must not be empty" },
    { argv: ["--name", "x".repeat(201)], message: "--name must be at most 200 characters" },
    { argv: ["--category", "1.5"], message: '--category must be an integer from 1 to 9007199254740991, got "1.5"' },
    { argv: ["--category", "0"], message: '--category must be an integer from 1 to 9007199254740991, got "0"' },
    { argv: ["--status", "lost"], message: "option '--status <status>' argument 'lost' is invalid. Allowed choices are available, pending, sold." },
    { argv: ["--status", "sold", "--if-match", "a, b"], message: '--if-match takes one ETag, as `pets get <id> --verbose` shows it ("pet-3-2"), got "a, b"' },
  ])("refuses $argv with exit 2 before sending", async ({ argv, message }) => {
    const result = await run(["pets", "update", "7", ...argv], [{ status: 200, body: updated }]);
    expect(result).toMatchObject({ code: 2, stdout: "", requests: [] });
    expect(result.stderr.split("\n")[0]).toBe(`Error: ${message}`);
  });

  it("exits 4 for an unknown pet and 2 for an id that is not one", async () => {
    const gone = await run(["pets", "update", "9", "--status", "sold"], [apiError(404, "not_found", "no pet with id 9")]);
    expect(gone).toMatchObject({ code: 4, stderr: "Error: no pet with id 9 (not_found, HTTP 404)\n" });
    const bad = await run(["pets", "update", "nine", "--status", "sold"], [{ status: 200, body: updated }]);
    expect(bad).toMatchObject({ code: 2, requests: [] });
  });
});

describe("pets list --category", () => {
  it("sends categoryId with status and limit, and refuses a bad id before sending", async () => {
    const result = await run(["pets", "list", "--category", "3", "--status", "sold"], [{ status: 200, body: [{ ...pet(1), categoryId: 3, status: "sold" }] }]);
    expect(result.code).toBe(0);
    expect(result.requests.map((request) => request.path)).toEqual(["/v1/pets?status=sold&categoryId=3&limit=30"]);
    const bad = await run(["pets", "list", "--category", "0"], [{ status: 200, body: [] }]);
    expect(bad).toMatchObject({ code: 2, requests: [] });
    expect(bad.stderr).toMatch(/^Error: --category must be an integer from 1 to 9007199254740991, got "0"\n/);
  });
});

describe("keys revoke asks first", () => {
  const TERMINAL = { isStdinTTY: true, isStderrTTY: true };
  const listed = (...keys: object[]): ScriptedAnswer => ({ status: 200, body: keys });
  const revokeScript = (request: { method: string }): ScriptedAnswer => (request.method === "GET" ? listed(keyView) : { status: 204 });
  const methods = (requests: { method: string; path: string }[]) => requests.map((request) => `${request.method} ${request.path}`);
  const question = 'Revoke key key_1 "ci" (ps_abc123…, pro plan)? It stops working at once.';

  it("without a terminal, needs --yes: exit 2 and nothing sent", async () => {
    const result = await run(["keys", "revoke", "key_1", "--color", "never"], revokeScript, { isStderrTTY: true });
    expect(result).toMatchObject({ code: 2, stdout: "", requests: [] });
    expect(result.stderr).toMatch(/^Error: keys revoke asks before it revokes, and there is no terminal to ask on; add --yes to revoke key_1\n/);
  });

  it("with --yes, fetches the record, revokes with DELETE, and is silent when piped", async () => {
    const result = await run(["keys", "revoke", "key_1", "--yes"], revokeScript);
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(methods(result.requests)).toEqual(["GET /v1/keys", "DELETE /v1/keys/key_1"]);
  });

  it("on a terminal, names the record (id, name, prefix, plan) and revokes on yes", async () => {
    const result = await run(["keys", "revoke", "key_1"], revokeScript, { ...TERMINAL, answers: [true] });
    expect(result.questions).toEqual([question]);
    expect(methods(result.requests)).toEqual(["GET /v1/keys", "DELETE /v1/keys/key_1"]);
    expect(result).toMatchObject({ code: 0, stderr: "Revoked key key_1.\n" });
  });

  it("on a terminal, sends nothing on no, and exits 2", async () => {
    const result = await run(["keys", "revoke", "key_1"], revokeScript, { ...TERMINAL, answers: [false] });
    expect(methods(result.requests)).toEqual(["GET /v1/keys"]);
    expect(result).toMatchObject({ code: 2, stdout: "", stderr: "Not revoked: key_1.\n" });
  });

  it("refuses to revoke the key in use without --yes, even on a terminal, and says so", async () => {
    const env = { PETSTORE_API_KEY: "ps_abc123TheRestOfTheSecret" };
    const refused = await run(["keys", "revoke", "key_1"], revokeScript, { ...TERMINAL, answers: [true], env: { ...env, NO_COLOR: "1" } });
    expect(refused).toMatchObject({ code: 2, questions: [] });
    expect(methods(refused.requests)).toEqual(["GET /v1/keys"]);
    expect(refused.stderr).toMatch(/^Error: key key_1 "ci" \(ps_abc123…, pro plan\) is the key this command is using: revoking it locks you out\. Add --yes to revoke it anyway\.\n/);
    const forced = await run(["keys", "revoke", "key_1", "--yes"], revokeScript, { ...TERMINAL, env });
    expect(methods(forced.requests)).toEqual(["GET /v1/keys", "DELETE /v1/keys/key_1"]);
    expect(forced.stderr).toBe("Revoked key key_1 (the key this command used).\n");
  });

  it("exits 4 for an id the list does not have, and revokes nothing", async () => {
    const result = await run(["keys", "revoke", "key_nope", "--yes"], revokeScript);
    expect(result.code).toBe(4);
    expect(methods(result.requests)).toEqual(["GET /v1/keys"]);
    expect(result.stderr).toBe("Error: no key with id key_nope (not_found, HTTP 404)\n`petstore keys list` shows the ids; nothing was revoked.\n");
  });

  it.each([
    [["keys", "revoke", "ps_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0f", "--yes"], "key ids look like key_…"],
    [["pets", "get", "ps_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0f"], "ids are what `petstore pets list` shows"],
  ])("refuses a secret where an id is expected, without sending or echoing it: %j", async (argv, hint) => {
    const result = await run(argv, revokeScript, TERMINAL);
    expect(result).toMatchObject({ code: 2, stdout: "", requests: [] });
    expect(result.stderr).toContain("looks like an API key (ps_…), not an id, so it was not sent; " + hint);
    expect(result.stderr).not.toContain("Ab3dEf6h");
  });
});

describe("run functions return how they ended, and main prints it in one place", () => {
  it("runList says there were no pets, or that more follow, instead of printing it", async () => {
    const empty = createTestContext({ api: inMemoryApi([{ status: 200, body: [] }]), isStdoutTTY: true, env: { PETSTORE_BASE_URL: BASE_URL } });
    const settings = await resolveSettings({}, empty.ctx);
    expect(await runList({ settings, limit: 30 }, empty.ctx)).toEqual({ kind: "no-results", message: "No pets found." });
    expect(empty.stderr()).toBe("");
    const next = { link: `<${BASE_URL}/pets?cursor=1>; rel="next"` };
    const more = createTestContext({ api: inMemoryApi([{ status: 200, headers: next, body: [pet(1), pet(2)] }]), env: { PETSTORE_BASE_URL: BASE_URL } });
    expect(await runList({ settings, limit: 2 }, more.ctx)).toEqual({
      kind: "partial",
      message: "Showing the first 2 pets; more exist: raise --limit, or use --all.",
    });
  });
});

describe("deprecationNotice", () => {
  it("is one line; how to silence it is in pets get --help", async () => {
    const help = await run(["pets", "get", "--help"], []);
    expect(help.code).toBe(0);
    expect(help.stdout.replace(/\s+/g, " ")).toContain("PETSTORE_NO_DEPRECATION_NOTICE=1 or `petstore config set deprecation-notices off` silence it");
  });

  it("says nothing for an answer that is not marked deprecated", () => {
    expect(deprecationNotice({})).toBeUndefined();
    expect(deprecationNotice({ deprecation: "@1767225600" })).toBe("Warning: `pets get` (GET /pets/{id}) is deprecated.");
  });
});

describe("missing required flags are asked for on a terminal, and only there", () => {
  const TERMINAL = { isStdinTTY: true, isStderrTTY: true };
  const created = (request: { body?: unknown }): ScriptedAnswer => ({
    status: 201,
    headers: { location: "/v1/pets/7" },
    body: { id: 7, status: "available", ...(request.body as object) },
  });
  const createdKey: ScriptedAnswer = {
    status: 201,
    headers: { location: "/v1/keys/key_9" },
    body: { id: "key_9", key: `ps_${"k".repeat(40)}`, prefix: "ps_kkkkkk", plan: "free", name: null, scopes: ALL_SCOPES, limits: { perMinute: 60, perDay: 1000 }, createdAt: "2030-01-02T03:04:05.000Z" },
  };

  it("pets add asks for the name and the category, then sends them", async () => {
    const result = await run(["pets", "add"], created, { ...TERMINAL, answers: ["Rex", "3"] });
    expect(result.code).toBe(0);
    expect(result.questions).toEqual(["Name of the pet?", "Category id?"]);
    expect(result.requests[0]?.body).toEqual({ name: "Rex", categoryId: 3 });
  });

  it("asks only for what is missing, after checking the flags given", async () => {
    const asked = await run(["pets", "add", "--name", "Rex"], created, { ...TERMINAL, answers: ["2"] });
    expect(asked.questions).toEqual(["Category id?"]);
    const refused = await run(["pets", "add", "--category", "x"], created, { ...TERMINAL, answers: [] });
    expect(refused).toMatchObject({ code: 2, questions: [], requests: [] });
  });

  it("cancelling the question sends nothing and exits 2", async () => {
    const result = await run(["pets", "add"], created, { ...TERMINAL, answers: [undefined] });
    expect(result).toMatchObject({ code: 2, requests: [], stderr: "Cancelled; nothing was sent.\n" });
  });

  it("keys create offers the plans as a select", async () => {
    const result = await run(["keys", "create"], [createdKey], { ...TERMINAL, answers: ["free"] });
    expect(result.stderr).toContain("Created free key key_9");
    expect(result.code).toBe(0);
    expect(result.questions).toEqual(["Plan of the new key? [free|pro|business|enterprise]"]);
    expect(result.requests[0]?.body).toEqual({ plan: "free" });
  });

  it.each([
    [["pets", "add"], { isStderrTTY: true }, "required option '--name <name>' not specified"],
    [["pets", "add", "--name", "Rex"], { isStdinTTY: true }, "required option '--category <id>' not specified"],
    [["keys", "create"], {}, "required option '--plan <plan>' not specified"],
  ])("%j without a terminal to ask on exits 2, asking nothing", async (argv, terminal, message) => {
    const result = await run(argv, created, terminal);
    expect(result).toMatchObject({ code: 2, questions: [], requests: [] });
    expect(result.stderr).toContain(message);
  });
});

describe("the pager", () => {
  const listed: Script = [{ status: 200, body: [pet(1)] }];

  it.each([
    [{}, "less -FRX"],
    [{ PAGER: "more" }, "more"],
    [{ PAGER: "more", PETSTORE_PAGER: "most" }, "most"],
  ])("on a terminal, list output goes through the pager of %j: %s", async (env, command) => {
    const result = await run(["pets", "list", "--no-color"], listed, { isStdoutTTY: true, env });
    expect(result.pagers).toEqual([{ command, text: "ID  NAME  CATEGORY  STATUS\n1   pet1  1         available\n", closed: true }]);
  });

  it.each([
    ["piped", [], {}, {}],
    ["--no-pager", ["--no-pager"], { isStdoutTTY: true }, {}],
    ["an empty PETSTORE_PAGER", [], { isStdoutTTY: true }, { PETSTORE_PAGER: "" }],
    ["PAGER=cat", [], { isStdoutTTY: true }, { PAGER: "cat" }],
  ])("never %s", async (_case, flags, terminal, env) => {
    const result = await run(["pets", "list", ...flags], listed, { ...terminal, env });
    expect(result.pagers).toEqual([]);
    expect(result.stdout).toContain("pet1");
  });

  it("keys list pages too", async () => {
    const result = await run(["keys", "list"], [{ status: 200, body: [keyView] }], { isStdoutTTY: true });
    expect(result.pagers.map((pager) => pager.command)).toEqual(["less -FRX"]);
  });
});
