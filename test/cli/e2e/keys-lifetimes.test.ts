// `petstore keys create --expires-in` and `keys rotate` against the real server, as a subprocess.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServeProcess, type ServeProcess } from "../../helpers/serve-process.js";
import { runCli, type RunOptions } from "../helpers/run-cli.js";

let server: ServeProcess;
beforeAll(async () => {
  server = await startServeProcess();
});
afterAll(() => server.stop());

const petstore = (args: string[], options: RunOptions = {}) =>
  runCli(args, { ...options, env: { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: server.adminKey, ...options.env } });

describe("keys create --expires-in", () => {
  it("sets an expiry that keys list shows, in the TSV's last column and the table's EXPIRES", async () => {
    const before = Date.now();
    const created = JSON.parse((await petstore(["keys", "create", "--plan", "free", "--expires-in", "30d", "--json"])).stdout) as { id: string; expiresAt: string };
    const expires = Date.parse(created.expiresAt) - before;
    expect(expires).toBeGreaterThanOrEqual(30 * 86_400_000);
    expect(expires).toBeLessThan(30 * 86_400_000 + 60_000);
    const line = (await petstore(["keys", "list"])).stdout.split("\n").find((row) => row.startsWith(`${created.id}\t`));
    expect(line?.split("\t")[10]).toBe(created.expiresAt);
    const table = await petstore(["keys", "list", "--no-color"], { tty: true });
    expect(table.stdout.split("\n")[0]).toContain("EXPIRES");
  });

  it.each(["30", "1w", "-1d", "d"])("refuses --expires-in %s with a usage error (exit 2) before any request", async (value) => {
    const result = await petstore(["keys", "create", "--plan", "free", "--expires-in", value]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--expires-in must be a whole number with a unit, s, m, h or d/);
  });
});

describe("keys rotate", () => {
  it("prints the new secret once; the old one works through the grace, --grace 0s ends it at once", async () => {
    const created = JSON.parse((await petstore(["keys", "create", "--plan", "pro", "--json"])).stdout) as { id: string; key: string };
    const rotated = await petstore(["keys", "rotate", created.id]);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(/^\S{16,}\n$/);
    expect(rotated.stderr).toMatch(/^Rotated pro key /);
    expect(rotated.stderr).toMatch(/The old secret works until \S+Z\./);
    const secret = rotated.stdout.trim();
    expect((await petstore(["pets", "list"], { env: { PETSTORE_API_KEY: created.key } })).code).toBe(0);
    expect((await petstore(["pets", "list"], { env: { PETSTORE_API_KEY: secret } })).code).toBe(0);

    const again = await petstore(["keys", "rotate", created.id, "--grace", "0s"]);
    expect(again.code).toBe(0);
    const refused = await petstore(["pets", "list"], { env: { PETSTORE_API_KEY: secret } });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/rotated/);
  });

  it("exits 4 for an unknown id", async () => {
    const result = await petstore(["keys", "rotate", "key_nope"]);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/no key with id/);
  });
});
