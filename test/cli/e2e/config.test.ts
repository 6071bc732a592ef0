// Where the CLI points and with which key: profiles, precedence and the config file, end to end.
import { mkdtemp, readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startServeProcess, type ServeProcess } from "../../helpers/serve-process.js";
import { startFakeApi, unusedBaseUrl } from "../helpers/fake-api.js";
import { runCli, type RunOptions } from "../helpers/run-cli.js";

let server: ServeProcess;
let home: string;
let dead: string;

beforeAll(async () => {
  server = await startServeProcess();
  dead = await unusedBaseUrl();
});
afterAll(() => server.stop());
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "petstore-cli-config-"));
});

/** The CLI with HOME set to this test's folder and no PETSTORE_CONFIG: the default location. */
const petstore = (args: string[], options: RunOptions = {}) =>
  runCli(args, { ...options, env: { HOME: home, PETSTORE_CONFIG: undefined, ...options.env } });
const configPath = () => join(home, ".config", "petstore", "config.json");

describe("profiles", () => {
  beforeEach(async () => {
    expect((await petstore(["config", "set", "base-url", dead])).code).toBe(0);
    expect((await petstore(["config", "set", "base-url", server.baseUrl, "--env", "staging"])).code).toBe(0);
    const fromStdin = await petstore(["config", "set", "api-key", "-", "--env", "staging", "--force"], { input: `${server.adminKey}\n` });
    expect(fromStdin).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("writes ~/.config/petstore/config.json with mode 0600", async () => {
    expect((await stat(configPath())).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(configPath(), "utf8"))).toEqual({
      baseUrl: dead,
      profiles: { staging: { baseUrl: server.baseUrl, apiKey: server.adminKey } },
    });
  });

  it("targets the profile's base URL with its key via --env or PETSTORE_ENV", async () => {
    expect(await petstore(["--env", "staging", "pets", "list"])).toEqual({ code: 0, stdout: "", stderr: "" });
    const verbose = await petstore(["--env", "staging", "pets", "list", "--verbose"]);
    expect(verbose.stderr.split("\n")[0]).toBe(
      `* base URL ${server.baseUrl} from the config file (environment staging); API key from the config file (environment staging)`,
    );
    expect((await petstore(["pets", "list"], { env: { PETSTORE_ENV: "staging" } })).code).toBe(0);
    expect((await petstore(["pets", "list", "--retries", "0"])).code).toBe(6);
  });

  it("lets the environment variable beat the config file, and the flag beat both", async () => {
    const viaEnv = await petstore(["pets", "list"], { env: { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: server.adminKey } });
    expect(viaEnv.code).toBe(0);
    const viaFlag = await petstore(["--env", "staging", "pets", "list", "--retries", "0", "--base-url", dead], { env: { PETSTORE_BASE_URL: server.baseUrl } });
    expect(viaFlag.code).toBe(6);
    expect(viaFlag.stderr).toContain(`Is a server running at ${dead}?`);
    const keyFlag = await petstore(["--env", "staging", "pets", "list", "--api-key", "ps_not_a_real_key_0000000"]);
    expect(keyFlag.code).toBe(3);
  });

  it("never sends a key to a host it was not set for: mixed pairs exit 2 before any request", async () => {
    const fake = await startFakeApi([{ status: 200, body: [] }]);
    try {
      const prodKey = "ps_production_key_0000000000";
      const envKey = await petstore(["--env", "staging", "pets", "list"], { env: { PETSTORE_API_KEY: prodKey } });
      expect(envKey).toMatchObject({ code: 2, stdout: "" });
      expect(envKey.stderr).toMatch(/^Error: PETSTORE_API_KEY would replace half of profile staging \(chosen by --env\)/);
      expect(envKey.stderr).not.toContain(prodKey);
      const envUrl = await petstore(["pets", "list"], { env: { PETSTORE_ENV: "staging", PETSTORE_BASE_URL: fake.baseUrl } });
      expect(envUrl).toMatchObject({ code: 2, stdout: "" });
      expect(envUrl.stderr).toMatch(/^Error: PETSTORE_BASE_URL would replace half of profile staging \(chosen by PETSTORE_ENV\)/);
      const fileUrl = await petstore(["pets", "list"], { env: { PETSTORE_API_KEY: prodKey } });
      expect(fileUrl).toMatchObject({ code: 2, stdout: "" });
      expect(fileUrl.stderr).toContain(`the key from PETSTORE_API_KEY would be sent to ${dead} (from the config file)`);
      expect(fake.requests).toEqual([]);
      // A URL typed on the command line is explicit: it takes the environment's key (CI's secret).
      const typedUrl = await petstore(["pets", "list", "--base-url", fake.baseUrl], { env: { PETSTORE_API_KEY: prodKey } });
      expect(typedUrl).toMatchObject({ code: 0, stderr: "" });
      expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${prodKey}`);
      // And so does a key typed with the environment's URL.
      const typedKey = await petstore(["pets", "list", "--api-key", prodKey], { env: { PETSTORE_BASE_URL: fake.baseUrl } });
      expect(typedKey).toMatchObject({ code: 0, stderr: "" });
      expect(fake.requests[1]?.headers.authorization).toBe(`Bearer ${prodKey}`);
    } finally {
      await fake.close();
    }
  });

  it("lists the settings with the API key masked", async () => {
    const result = await petstore(["config", "list"]);
    const masked = `${server.adminKey.slice(0, 5)}…${server.adminKey.slice(-4)}`;
    expect(result).toEqual({
      code: 0,
      stdout: `base-url=${dead}\nstaging.base-url=${server.baseUrl}\nstaging.api-key=${masked}\n`,
      stderr: "",
    });
    expect((await petstore(["config", "get", "base-url", "--env", "staging"])).stdout).toBe(`${server.baseUrl}\n`);
  });

  it("stops with exit 2 for an environment the file does not have", async () => {
    const result = await petstore(["--env", "production", "pets", "list"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Error: no environment "production" in ${configPath()}; known: staging`);
  });
});

it("reads $PETSTORE_CONFIG first, then $XDG_CONFIG_HOME/petstore/config.json", async () => {
  const xdg = join(home, "xdg");
  await petstore(["config", "set", "base-url", server.baseUrl], { env: { XDG_CONFIG_HOME: xdg } });
  expect(JSON.parse(await readFile(join(xdg, "petstore", "config.json"), "utf8"))).toEqual({ baseUrl: server.baseUrl });
  const explicit = join(home, "explicit.json");
  await petstore(["config", "set", "base-url", dead], { env: { XDG_CONFIG_HOME: xdg, PETSTORE_CONFIG: explicit } });
  expect((await petstore(["config", "get", "base-url"], { env: { XDG_CONFIG_HOME: xdg, PETSTORE_CONFIG: explicit } })).stdout).toBe(`${dead}\n`);
  expect((await petstore(["config", "get", "base-url"], { env: { XDG_CONFIG_HOME: xdg } })).stdout).toBe(`${server.baseUrl}\n`);
});
