// `petstore keys ...` in process against the real app: creating, listing and revoking keys, a
// key's scopes, and the server's own 429 and spent day as the client reports them.
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../src/server/request-log.js";
import { ensureAdminKey } from "../../../src/server/keys/admin-keys.js";
import { MEMORY_APP_NOW } from "../../helpers/memory-app.js";
import { startWorld } from "./world.js";

const WARNING = "Warning: save the secret now: it is not shown again.\n";

describe("keys create", () => {
  it("prints the secret alone on stdout and the warning on stderr, and the key works", async () => {
    const { run } = await startWorld();
    const result = await run(["keys", "create", "--plan", "pro", "--name", "ci"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\S{16,}\n$/);
    expect(result.stderr).toMatch(/^Created pro key \S+ "ci" \(\S+…, 300\/min, 10000\/day\)\.\n/);
    expect(result.stderr).toContain(WARNING);
    const secret = result.stdout.trim();
    expect(result.stderr).not.toContain(secret);
    const list = await run(["pets", "list"], { key: secret });
    expect(list).toMatchObject({ code: 0, stderr: "" });
  });

  it("prints the same on a TTY: the secret on stdout, the warning on stderr", async () => {
    const { run } = await startWorld();
    const result = await run(["keys", "create", "--plan", "free"], { tty: true });
    expect(result.stdout).toMatch(/^\S{16,}\n$/);
    expect(result.stderr).toContain("it is not shown again");
  });

  it("prints the whole object with --json", async () => {
    const { run } = await startWorld();
    const result = await run(["keys", "create", "--plan", "enterprise", "--per-minute", "50", "--per-day", "900", "--json"]);
    expect(JSON.parse(result.stdout)).toEqual({
      id: expect.any(String),
      key: expect.any(String),
      prefix: expect.any(String),
      plan: "enterprise",
      name: null,
      scopes: ["pets:read", "pets:write", "orders:read", "orders:write", "events:read"],
      limits: { perMinute: 50, perDay: 900 },
      createdAt: expect.any(String),
    });
    expect(result.stderr).toContain(WARNING);
  });

  it("stops an unknown plan before any request, with exit code 2", async () => {
    const { run, api } = await startWorld();
    const result = await run(["keys", "create", "--plan", "platinum"]);
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr).toContain("Allowed choices are free, pro, business, enterprise.");
    expect(api.requests).toEqual([]);
  });

  it("exits 3 with a hint when the key is not an admin key", async () => {
    const { run } = await startWorld();
    const secret = (await run(["keys", "create", "--plan", "free"])).stdout.trim();
    const result = await run(["keys", "create", "--plan", "free"], { key: secret });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^Error: .+ \(forbidden, HTTP 403\)\nManaging keys needs an admin key/);
  });
});

describe("keys create --scopes", () => {
  it("--scopes: the key gets exactly those, the summary says so, and keys list shows them", async () => {
    const { run } = await startWorld();
    const result = await run(["keys", "create", "--plan", "free", "--name", "dashboard", "--scopes", "events:read,pets:read"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^Created free key (\S+) "dashboard" \(\S+…, 60\/min, 1000\/day, only pets:read,events:read\)\.\n/);
    const id = /key (\S+) "dashboard"/.exec(result.stderr)?.[1] ?? "";
    const tsv = (await run(["keys", "list"])).stdout.split("\n").find((row) => row.startsWith(`${id}\t`));
    expect(tsv?.split("\t")).toHaveLength(12);
    expect(tsv?.split("\t").at(-1)).toBe("pets:read,events:read");
    const table = await run(["keys", "list", "--no-color", "--no-pager"], { tty: true, columns: 250 });
    expect(table.stdout.split("\n")[0]?.split(/\s{2,}/)).toContain("SCOPES");
    expect(table.stdout.split("\n").find((row) => row.startsWith(id))).toMatch(/\s{2}pets:read,events:read\s{2}active$/);
  });

  it("a key used outside its scopes: exit 3, the server's message naming the scope, and how to see and get scopes", async () => {
    const { run } = await startWorld();
    const reader = (await run(["keys", "create", "--plan", "free", "--scopes", "pets:read"])).stdout.trim();
    const result = await run(["pets", "add", "--name", "Rex", "--category", "1"], { key: reader });
    expect(result).toMatchObject({ code: 3, stdout: "" });
    expect(result.stderr).toBe(
      "Error: this API key lacks the scope pets:write (it holds pets:read); an admin can create a key that has it (insufficient_scope, HTTP 403)\n" +
        "`petstore status` shows the key's scopes. A key's scopes never change: an admin can create one that has the scope needed" +
        " (`petstore keys create --plan <plan> --scopes <scope,...>`).\n",
    );
    expect((await run(["status"], { key: reader })).stdout).toContain("\nScopes   pets:read\n");
  });

  it("stops an unknown scope before any request, with exit code 2", async () => {
    const { run, api } = await startWorld();
    const before = JSON.parse((await run(["keys", "list", "--json"])).stdout) as unknown[];
    const sent = api.requests.length;
    const result = await run(["keys", "create", "--plan", "free", "--scopes", "pets:read,pets:delete"]);
    expect(result).toEqual({ code: 2, stdout: "", stderr: expect.stringContaining('--scopes: unknown scope "pets:delete"') });
    expect(api.requests).toHaveLength(sent);
    expect(JSON.parse((await run(["keys", "list", "--json"])).stdout)).toHaveLength(before.length);
  });
});

describe("keys list and revoke", () => {
  it("lists keys as tab-separated lines, a table on a TTY, JSON with --json", async () => {
    const { run } = await startWorld();
    const created = JSON.parse((await run(["keys", "create", "--plan", "business", "--name", "listed", "--json"])).stdout) as { id: string; prefix: string };
    const tsv = await run(["keys", "list"]);
    const line = tsv.stdout.split("\n").find((row) => row.startsWith(`${created.id}\t`));
    expect(line?.split("\t").slice(0, 7)).toEqual([created.id, created.prefix, "business", "listed", "1000", "100000", "false"]);
    const table = await run(["keys", "list", "--no-color"], { tty: true });
    expect(table.stdout.split("\n")[0]?.split(/\s{2,}/)).toEqual(["ID", "PREFIX", "PLAN", "NAME", "PER MINUTE", "PER DAY", "CREATED", "LAST USED", "STATE"]);
    const json = JSON.parse((await run(["keys", "list", "--json"])).stdout) as { id: string; key?: string }[];
    expect(json.find((key) => key.id === created.id)).toMatchObject({ plan: "business", name: "listed", revokedAt: null });
    expect(json.every((key) => key.key === undefined)).toBe(true);
  });

  it("a table fits a narrow terminal: long names cut with …, the creation time and limits left out before anything wraps", async () => {
    const { run } = await startWorld();
    // A key already used, as on the shared server this case ran on: its LAST USED time is a column
    // the narrow tables leave out, which leaves the names more room.
    const used = (await run(["keys", "create", "--plan", "pro", "--name", "ci"])).stdout.trim();
    expect((await run(["pets", "list"], { key: used })).code).toBe(0);
    await run(["keys", "create", "--plan", "free", "--name", "a rather long key name for the nightly ci robot"]);
    await run(["keys", "create", "--plan", "pro", "--name", "contractor", "--expires-in", "30d"]);
    for (const columns of [60, 90, 120]) {
      const table = await run(["keys", "list", "--no-color", "--no-pager"], { tty: true, columns });
      expect(table.code).toBe(0);
      const lines = table.stdout.trimEnd().split("\n");
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(columns);
      const head = lines[0]!.split(/\s{2,}/);
      // Id, plan, name and state are always there; the expiry (some key expires) up from 80.
      expect(head).toEqual(expect.arrayContaining(["ID", "PLAN", "NAME", "STATE"]));
      if (columns >= 90) expect(head).toContain("EXPIRES");
      // A time is never cut in half: shown whole or not at all.
      expect(table.stdout).not.toMatch(/\d{4}-\d…/);
      if (columns < 120) expect(table.stdout).toMatch(/a rather long.*…/);
    }
    const wide = await run(["keys", "list", "--no-color", "--no-pager"], { tty: true, columns: 250 });
    expect(wide.stdout.split("\n")[0]?.split(/\s{2,}/)).toEqual(["ID", "PREFIX", "PLAN", "NAME", "PER MINUTE", "PER DAY", "CREATED", "LAST USED", "EXPIRES", "STATE"]);
    expect(wide.stdout).toContain("a rather long key name for the nightly ci robot");
  });

  it("revokes a key with --yes: exit 0, then the key gets 401 (exit 3); an unknown id exits 4", async () => {
    const { run } = await startWorld();
    const created = JSON.parse((await run(["keys", "create", "--plan", "free", "--json"])).stdout) as { id: string; key: string };
    expect(await run(["keys", "revoke", created.id, "--yes"])).toEqual({ code: 0, stdout: "", stderr: "" });
    const refused = await run(["pets", "list"], { key: created.key });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/\(unauthorized, HTTP 401\)\nThe API key was refused\. Set another with --api-key, PETSTORE_API_KEY, or `petstore config set api-key -`/);
    const unknown = await run(["keys", "revoke", "key_doesnotexist", "--yes"]);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toMatch(/\(not_found, HTTP 404\)/);
  });
});

describe("keys revoke is careful", () => {
  it("without a terminal and without --yes, exits 2 and the key keeps working", async () => {
    const { run } = await startWorld();
    const created = JSON.parse((await run(["keys", "create", "--plan", "free", "--json"])).stdout) as { id: string; key: string };
    const refused = await run(["keys", "revoke", created.id]);
    expect(refused).toMatchObject({ code: 2, stdout: "" });
    expect(refused.stderr).toContain(`there is no terminal to ask on; add --yes to revoke ${created.id}`);
    expect((await run(["pets", "list"], { key: created.key })).code).toBe(0);
  });

  it("refuses to revoke the key it is using without --yes, even on a terminal", async () => {
    const { run, store } = await startWorld();
    // The stored admin key a first start creates and prints (the environment's admin key is not in the list).
    let printed = "";
    await ensureAdminKey(store.keys, createLogger({ write: (chunk: string) => ((printed += chunk), true) }, { quiet: true, now: () => MEMORY_APP_NOW }), () => MEMORY_APP_NOW, "http://127.0.0.1:3999/v1");
    const admin = /ps_\w+/.exec(printed)![0];
    const keys = JSON.parse((await run(["keys", "list", "--json"], { key: admin })).stdout) as { id: string; admin: boolean }[];
    const own = keys.find((key) => key.admin)!;
    // No answer is scripted: a question asked fails the test.
    const refused = await run(["keys", "revoke", own.id], { key: admin, tty: "terminal" });
    expect(refused).toMatchObject({ code: 2, stdout: "" });
    expect(refused.stderr).toContain(`key ${own.id} "bootstrap admin" (${admin.slice(0, 9)}…, `);
    expect(refused.stderr).toContain("is the key this command is using: revoking it locks you out. Add --yes to revoke it anyway.");
    expect((await run(["keys", "list"], { key: admin })).code).toBe(0);
  });

  it("refuses a secret where a key id is expected, and never sends it", async () => {
    const { run, api, serverLog } = await startWorld();
    const secret = (await run(["keys", "create", "--plan", "free"])).stdout.trim();
    const sent = api.requests.length;
    const result = await run(["keys", "revoke", secret, "--yes"]);
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr).not.toContain(secret.slice(3));
    expect(api.requests).toHaveLength(sent);
    expect(serverLog()).not.toContain(secret.slice(3, 12));
    expect((await run(["pets", "list"], { key: secret })).code).toBe(0);
  });
});

describe("the real server's 429", () => {
  it("exits 5 and says when to retry once a key is over its limit", async () => {
    const { run } = await startWorld();
    const key = (await run(["keys", "create", "--plan", "enterprise", "--per-minute", "2", "--per-day", "100"])).stdout.trim();
    expect((await run(["pets", "list"], { key })).code).toBe(0);
    expect((await run(["pets", "list"], { key })).code).toBe(0);
    // --retries 0: the server's Retry-After is up to a minute away. The clock is fixed: the minute does not turn.
    const limited = await run(["pets", "list", "--retries", "0"], { key });
    expect(limited.code).toBe(5);
    expect(limited.stdout).toBe("");
    expect(limited.stderr).toMatch(/^Error: .+ \(rate_limited, HTTP 429\)\nRate-limited; retry in ([1-9]|[1-5]\d|60) s\.\n$/);
    const json = await run(["pets", "list", "--retries", "0", "--json"], { key });
    expect(json.code).toBe(5);
    expect(JSON.parse(json.stderr)).toMatchObject({ code: expect.stringMatching(/^(rate_limited|key_banned)$/), status: 429 });
  });
});

describe("status with the key's day spent", () => {
  it("shows the key, its limits and the spent day from the server's 429, and exits 0", async () => {
    const { run } = await startWorld();
    const key = (await run(["keys", "create", "--plan", "enterprise", "--per-minute", "50", "--per-day", "2"])).stdout.trim();
    expect((await run(["pets", "list"], { key })).code).toBe(0);
    expect((await run(["pets", "list"], { key })).code).toBe(0);
    const result = await run(["status"], { key });
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toContain(`Key      ${key.slice(0, 9)}…, plan unknown (its limits are no standard plan's)\nScopes   not told while the key's quota is spent\nLimits   50 a minute, 2 a day\n`);
    expect(result.stdout).toMatch(/\nDay {6}0 of 2 left today, resets at 00:00 UTC \(in \d+ (s|min|h \d+ min)\)\n/);
  });
});
