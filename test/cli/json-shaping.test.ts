// --json fields and --jq in process: each command that prints records declares its fields (the
// type of its record lists them), and jq runs over the whole answer, however many pages it took.
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { inMemoryApi, type Script, type ScriptedAnswer } from "./helpers/in-memory-api.js";
import { createTestContext } from "./helpers/test-context.js";

const BASE_URL = "http://127.0.0.1:3999/v1";
const COUNT = 450;
const pet = (id: number) => ({ id, name: `pet${id}`, categoryId: 1 + (id % 3), status: "available" });

/** A server holding COUNT pets, in pages of up to 100 with cursors. */
const pages = (request: { path: string }): ScriptedAnswer => {
  const params = new URL(request.path, "http://x").searchParams;
  const cursor = Number(params.get("cursor") ?? "0");
  const end = Math.min(COUNT, cursor + Number(params.get("limit") ?? "20"));
  const link = end < COUNT ? { link: `<${BASE_URL}/pets?limit=${params.get("limit") ?? "20"}&cursor=${end}>; rel="next"` } : undefined;
  return { status: 200, headers: link, body: Array.from({ length: end - cursor }, (_, i) => pet(cursor + i + 1)) };
};

async function run(argv: string[], script: Script = pages) {
  const api = inMemoryApi(script);
  const test = createTestContext({ api, env: { PETSTORE_BASE_URL: BASE_URL, PETSTORE_API_KEY: "ps_test", PETSTORE_CONFIG: "/nonexistent/c.json" } });
  const code = await main(argv, test.ctx);
  return { code, stdout: test.stdout(), stderr: test.stderr(), requests: api.requests.length };
}

describe("--jq", () => {
  it("runs over every page: pets list and api --paginate", async () => {
    expect(await run(["pets", "list", "--limit", String(COUNT), "--jq", "length"])).toMatchObject({ code: 0, stdout: `${COUNT}\n`, stderr: "" });
    expect(await run(["api", "/pets?limit=100", "--paginate", "--jq", "length"])).toMatchObject({ code: 0, stdout: `${COUNT}\n`, stderr: "" });
  });

  it("prints strings raw, one output a line, nothing for no output", async () => {
    expect((await run(["pets", "list", "--limit", "3", "--jq", ".[].name"])).stdout).toBe("pet1\npet2\npet3\n");
    expect((await run(["pets", "list", "--limit", "3", "--jq", "empty"])).stdout).toBe("");
  });

  it("leaves the command's exit code alone (jq's own status never leaks into the process)", async () => {
    const before = process.exitCode;
    expect((await run(["pets", "list", "--limit", "3", "--jq", ".[] | error(\"boom\")"])).code).toBe(1);
    expect((await run(["pets", "list", "--limit", "3", "--jq", "length"])).code).toBe(0);
    expect(process.exitCode).toBe(before);
  });

  it("refuses an expression that does not compile with exit 2 before any request; fails at run time with exit 1", async () => {
    const bad = await run(["pets", "list", "--jq", ".["]);
    expect(bad).toMatchObject({ code: 2, stdout: "", requests: 0 });
    expect(bad.stderr).toMatch(/^Error: --jq: jq: error: syntax error/);
    const failing = await run(["pets", "list", "--limit", "2", "--jq", ".[0] | keys | .x"]);
    expect(failing.code).toBe(1);
    expect(failing.stderr).toMatch(/^Error: --jq: jq: error/m);
  });

  it("is an option of the commands that print records only", async () => {
    const result = await run(["inventory", "--jq", "."]);
    expect(result).toMatchObject({ code: 2, requests: 0 });
    expect(result.stderr).toContain("unknown option '--jq'");
  });
});

describe("--json fields, as each command declares them", () => {
  it("picks the fields named, in each record", async () => {
    const result = await run(["pets", "list", "--limit", "2", "--json", "id,status"]);
    expect(JSON.parse(result.stdout)).toEqual([{ id: 1, status: "available" }, { id: 2, status: "available" }]);
  });

  it("knows every field of the record's type: keys list offers scopes, expiresAt and rotatedAt", async () => {
    const key = {
      id: "key_1", prefix: "ps_abc123", plan: "pro", name: null, admin: false, scopes: ["pets:read", "events:read"], limits: { perMinute: 300, perDay: 10000 },
      createdAt: "2030-01-02T03:04:05.000Z", revokedAt: null, lastUsedAt: null, expiresAt: "2031-01-01T00:00:00.000Z", rotatedAt: null,
    };
    const result = await run(["keys", "list", "--json", "id,scopes,expiresAt,rotatedAt"], [{ status: 200, body: [key] }]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(result.stdout)).toEqual([{ id: "key_1", scopes: ["pets:read", "events:read"], expiresAt: "2031-01-01T00:00:00.000Z", rotatedAt: null }]);
  });

  it("refuses a field the record does not have, listing those it has, before any request", async () => {
    const result = await run(["orders", "list", "--json", "id,colour"]);
    expect(result).toMatchObject({ code: 2, stdout: "", requests: 0 });
    expect(result.stderr).toContain("--json: unknown field colour; the fields of `orders list` are: id, petId, status, createdAt, updatedAt");
  });

  it("takes any field where the command prints what the API answers (api), and none where it prints no records", async () => {
    expect(JSON.parse((await run(["api", "/pets?limit=1", "--json", "name"])).stdout)).toEqual([{ name: "pet1" }]);
    const inventory = await run(["inventory", "--json", "id"]);
    expect(inventory).toMatchObject({ code: 2, requests: 0 });
    expect(inventory.stderr).toContain("`inventory` does not print records: --json takes no fields there");
  });
});
