// `petstore keys ...` end to end: the built binary against `petstore serve`. The verb cases run
// in process against the real app in test/cli/verbs/keys.test.ts.
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

describe("keys end to end", () => {
  it("create, list, revoke: the secret on stdout, the key listed, then refused", async () => {
    const created = await petstore(["keys", "create", "--plan", "pro", "--name", "smoke"]);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^\S{16,}\n$/);
    expect(created.stderr).toMatch(/^Created pro key (\S+) "smoke" \(\S+…, 300\/min, 10000\/day\)\.\nWarning: save the secret now: it is not shown again\.\n/);
    const secret = created.stdout.trim();
    const id = /key (\S+) "smoke"/.exec(created.stderr)![1]!;
    expect(await petstore(["pets", "list"], { env: { PETSTORE_API_KEY: secret } })).toMatchObject({ code: 0, stderr: "" });
    const list = await petstore(["keys", "list"]);
    expect(list).toMatchObject({ code: 0, stderr: "" });
    expect(list.stdout.split("\n").find((row) => row.startsWith(`${id}\t`))?.split("\t").slice(2, 4)).toEqual(["pro", "smoke"]);
    expect(await petstore(["keys", "revoke", id, "--yes"])).toEqual({ code: 0, stdout: "", stderr: "" });
    const refused = await petstore(["pets", "list"], { env: { PETSTORE_API_KEY: secret } });
    expect(refused).toMatchObject({ code: 3, stdout: "" });
    expect(refused.stderr).toMatch(/\(unauthorized, HTTP 401\)\nThe API key was refused\./);
    expect(server.stderr()).not.toContain(secret.slice(3, 12));
  });
});

describe("keys revoke is careful", () => {
  // Needs a process: what is typed ahead sits in a real stdin before the question is asked.
  it("on a terminal, a `y` typed before the question shows does not answer it", async () => {
    const created = JSON.parse((await petstore(["keys", "create", "--plan", "free", "--json"])).stdout) as { id: string; key: string };
    // stdin holds "y\n" from the start, as if typed while the key list was being fetched.
    const typedAhead = await petstore(["keys", "revoke", created.id], { tty: "terminal", input: "y\n" });
    expect(typedAhead).toMatchObject({ code: 2, stdout: "" });
    expect(typedAhead.stderr).toContain(`Not revoked: ${created.id}.`);
    expect((await petstore(["pets", "list"], { env: { PETSTORE_API_KEY: created.key } })).code).toBe(0);
  });
});
