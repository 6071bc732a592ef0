import { mkdtemp, readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { fileConfigStore } from "../../src/cli/config-file.js";
import { main } from "../../src/cli/main.js";
import { createTestContext, type TestContextOptions } from "./helpers/test-context.js";

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "petstore-config-cmd-"));
});

async function run(argv: string[], options: TestContextOptions = {}) {
  const test = createTestContext({ homedir: home, ...options });
  const code = await main(argv, test.ctx);
  return { code, stdout: test.stdout(), stderr: test.stderr() };
}

const defaultPath = () => join(home, ".config", "petstore", "config.json");
const readJson = async (path: string) => JSON.parse(await readFile(path, "utf8")) as unknown;

describe("config set, get and list", () => {
  it("writes ~/.config/petstore/config.json with mode 0600 and reads it back", async () => {
    expect(await run(["config", "set", "base-url", "http://127.0.0.1:4000/v1"])).toEqual({ code: 0, stdout: "", stderr: "" });
    expect((await stat(defaultPath())).mode & 0o777).toBe(0o600);
    expect(await readJson(defaultPath())).toEqual({ baseUrl: "http://127.0.0.1:4000/v1" });
    expect(await run(["config", "get", "base-url"])).toEqual({ code: 0, stdout: "http://127.0.0.1:4000/v1\n", stderr: "" });
  });

  it("reads the key from stdin with `-`, so it stays out of shell history", async () => {
    await run(["config", "set", "api-key", "-", "--env", "staging"], { stdin: "ps_ffffffffffffffffffffffffffffffffffffffff\n" });
    expect(await readJson(defaultPath())).toEqual({ profiles: { staging: { apiKey: "ps_ffffffffffffffffffffffffffffffffffffffff" } } });
    expect((await run(["config", "get", "api-key", "--env", "staging"])).stdout).toBe("ps_ffffffffffffffffffffffffffffffffffffffff\n");
  });

  it("refuses an empty value from stdin", async () => {
    const result = await run(["config", "set", "api-key", "-"], { stdin: "\n" });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Error: the value for api-key is empty/);
  });

  it("writes to $XDG_CONFIG_HOME/petstore/config.json, or to $PETSTORE_CONFIG", async () => {
    await run(["config", "set", "base-url", "http://x/v1"], { env: { XDG_CONFIG_HOME: join(home, "xdg") } });
    expect(await readJson(join(home, "xdg", "petstore", "config.json"))).toEqual({ baseUrl: "http://x/v1" });
    await run(["config", "set", "base-url", "http://y/v1"], { env: { PETSTORE_CONFIG: join(home, "p.json"), XDG_CONFIG_HOME: join(home, "xdg") } });
    expect(await readJson(join(home, "p.json"))).toEqual({ baseUrl: "http://y/v1" });
  });

  it("writes into the PETSTORE_ENV profile like --env", async () => {
    await run(["config", "set", "base-url", "https://prod.example/v1"], { env: { PETSTORE_ENV: "production" } });
    expect(await readJson(defaultPath())).toEqual({ profiles: { production: { baseUrl: "https://prod.example/v1" } } });
  });

  it("lists key=value lines with profiles prefixed and API keys masked", async () => {
    await run(["config", "set", "base-url", "http://127.0.0.1:3000/v1"]);
    await run(["config", "set", "api-key", "ps_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaawxyz"]);
    await run(["config", "set", "base-url", "https://staging.example/v1", "--env", "staging"]);
    await run(["config", "set", "api-key", "ps_st00000000000000000000000000000000006789", "--env", "staging"]);
    expect((await run(["config", "list"])).stdout).toBe(
      "base-url=http://127.0.0.1:3000/v1\napi-key=ps_aa…wxyz\nstaging.base-url=https://staging.example/v1\nstaging.api-key=ps_st…6789\n",
    );
    expect((await run(["config", "list", "--env", "staging"])).stdout).toBe("base-url=https://staging.example/v1\napi-key=ps_st…6789\n");
    const json = JSON.parse((await run(["config", "list", "--json"])).stdout) as { apiKey: string; profiles: { staging: { apiKey: string } } };
    expect(json.apiKey).toBe("ps_aa…wxyz");
    expect(json.profiles.staging.apiKey).toBe("ps_st…6789");
  });

  it("exits 1 when the key is not set", async () => {
    const result = await run(["config", "get", "api-key"]);
    expect(result).toEqual({ code: 1, stdout: "", stderr: `Error: api-key is not set in ${defaultPath()}\n` });
  });

  it("confirms on a terminal", async () => {
    const result = await run(["config", "set", "base-url", "http://x/v1", "--env", "qa"], { isStderrTTY: true });
    expect(result.stderr).toBe(`Set base-url for environment qa in ${defaultPath()}.\n`);
  });
});

const KEY = `ps_${"A1b2C3d4E5".repeat(4)}`;

describe("config unset, path and checks", () => {
  it("unsets a value, and a profile emptied by it goes too", async () => {
    await run(["config", "set", "base-url", "http://a/v1"]);
    await run(["config", "set", "api-key", KEY, "--env", "staging"]);
    expect(await run(["config", "unset", "api-key", "--env", "staging"], { isStderrTTY: true })).toEqual({
      code: 0,
      stdout: "",
      stderr: `Removed api-key for environment staging from ${defaultPath()}.\n`,
    });
    expect(await readJson(defaultPath())).toEqual({ baseUrl: "http://a/v1" });
    expect((await run(["config", "unset", "base-url"])).code).toBe(0);
    expect(await readJson(defaultPath())).toEqual({});
    expect((await run(["config", "unset", "base-url"], { isStderrTTY: true })).stderr).toBe(`base-url was not set in ${defaultPath()}.\n`);
  });

  it("prints the config file's path alone, existing or not", async () => {
    expect(await run(["config", "path"])).toEqual({ code: 0, stdout: `${defaultPath()}\n`, stderr: "" });
  });

  it.each([["list"], ["unset", "api-key"], ["get", "api-key"]])("config %s --env <unknown> exits 2 like every other command", async (...argv) => {
    await run(["config", "set", "base-url", "http://s/v1", "--env", "staging"]);
    const result = await run(["config", ...argv, "--env", "nosuch"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Error: no environment "nosuch" in .*; known: staging\n/);
  });

  it.each(["ps_short", "sk_" + "a".repeat(40), `ps_${"a".repeat(39)}-`, "hunter2"])("refuses an api-key not shaped like a key (%s), without echoing it", async (value) => {
    const result = await run(["config", "set", "api-key", value]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Error: api-key must be an API key as `keys create` prints it: ps_ and 40 letters and digits .*add --force\)\n/);
    expect(result.stderr).not.toContain(value);
  });

  it("stores an operator's admin key of another shape with --force", async () => {
    expect((await run(["config", "set", "api-key", "operator-chosen-admin-key-0001", "--force"])).code).toBe(0);
    expect(await readJson(defaultPath())).toEqual({ apiKey: "operator-chosen-admin-key-0001" });
  });

  it("warns once, naming it, about a field of the config file it does not know", async () => {
    const { writeFile, mkdir } = await import("node:fs/promises");
    await mkdir(join(home, ".config", "petstore"), { recursive: true });
    await writeFile(defaultPath(), JSON.stringify({ baseURL: "http://typo/v1", profiles: { s: { apikey: "x", baseUrl: "http://s/v1" } } }));
    const warnings: string[] = [];
    const store = fileConfigStore(defaultPath(), (message) => warnings.push(message));
    await store.read();
    await store.read();
    expect(warnings).toEqual([
      expect.stringMatching(/unknown field "baseURL"; it is ignored \(known: baseUrl, apiKey, deprecationNotices, caCert, profiles\)$/),
      expect.stringMatching(/unknown field "profiles\.s\.apikey"/),
    ]);
  });
});

describe("config set on a terminal asks for what is left out", () => {
  const TERMINAL = { isStdinTTY: true, isStderrTTY: true };

  it("reads an API key masked, on one line, and checks its shape before taking it", async () => {
    const test = createTestContext({ homedir: home, ...TERMINAL, answers: [KEY] });
    expect(await main(["config", "set", "api-key", "--env", "staging"], test.ctx)).toBe(0);
    expect(test.questions).toEqual(["API key for staging? (masked)"]);
    expect(await readJson(defaultPath())).toEqual({ profiles: { staging: { apiKey: KEY } } });
    const refused = createTestContext({ homedir: home, ...TERMINAL, answers: ["ps_short"] });
    await expect(main(["config", "set", "api-key"], refused.ctx)).resolves.toBe(1);
    expect(refused.stderr()).toMatch(/the scripted answer "ps_short" .* is refused: api-key must be an API key/);
  });

  it("asks for `-` too on a terminal, instead of waiting for Ctrl-D", async () => {
    const test = createTestContext({ homedir: home, ...TERMINAL, answers: [KEY] });
    expect(await main(["config", "set", "api-key", "-"], test.ctx)).toBe(0);
    expect(test.questions).toEqual(["API key? (masked)"]);
  });

  it("without a terminal, a left-out value is exit 2", async () => {
    const result = await run(["config", "set", "api-key"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Error: missing required argument 'value'\n/);
  });
});
