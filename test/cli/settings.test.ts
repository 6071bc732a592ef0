import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { fileConfigStore } from "../../src/cli/config-file.js";
import { UsageError } from "../../src/cli/errors.js";
import { DEFAULT_BASE_URL, describeSources, resolveSettings, type GlobalFlags } from "../../src/cli/settings.js";

let configPath: string;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), "petstore-settings-"));
  configPath = join(dir, "config.json");
  const config = {
    baseUrl: "http://file-top.example/v1",
    apiKey: "key-from-file-top",
    profiles: {
      staging: { baseUrl: "https://staging.example/v1", apiKey: "key-from-staging" },
      partial: { baseUrl: "https://partial.example/v1" },
    },
  };
  await writeFile(configPath, JSON.stringify(config));
});

const resolve = (flags: GlobalFlags, env: Record<string, string | undefined> = {}) =>
  resolveSettings(flags, { env, config: fileConfigStore(configPath) });

describe("resolveSettings: a flag, then the environment, then the config file, then the default", () => {
  it.each([
    { name: "flag beats everything", flags: { baseUrl: "http://flag/v1", env: "staging" }, env: { PETSTORE_BASE_URL: "http://envvar/v1" }, baseUrl: "http://flag/v1", source: "flag" },
    { name: "environment beats the config file", flags: { env: "staging" }, env: { PETSTORE_BASE_URL: "http://envvar/v1" }, baseUrl: "http://envvar/v1", source: "environment" },
    { name: "the --env profile supplies the base URL", flags: { env: "staging" }, env: {}, baseUrl: "https://staging.example/v1", source: "config file" },
    { name: "PETSTORE_ENV picks the profile", flags: {}, env: { PETSTORE_ENV: "staging" }, baseUrl: "https://staging.example/v1", source: "config file" },
    { name: "--env beats PETSTORE_ENV", flags: { env: "partial" }, env: { PETSTORE_ENV: "staging" }, baseUrl: "https://partial.example/v1", source: "config file" },
    { name: "no profile: the file's top level", flags: {}, env: {}, baseUrl: "http://file-top.example/v1", source: "config file" },
    { name: "an empty variable counts as unset", flags: {}, env: { PETSTORE_BASE_URL: "" }, baseUrl: "http://file-top.example/v1", source: "config file" },
  ])("base URL: $name", async ({ flags, env, baseUrl, source }) => {
    const settings = await resolve(flags, env);
    expect(settings.baseUrl).toBe(baseUrl);
    expect(settings.sources.baseUrl).toBe(source);
  });

  it.each([
    { name: "flag", flags: { apiKey: "key-flag" }, env: { PETSTORE_API_KEY: "key-env" }, apiKey: "key-flag" },
    { name: "environment", flags: {}, env: { PETSTORE_API_KEY: "key-env" }, apiKey: "key-env" },
    { name: "profile", flags: { env: "staging" }, env: {}, apiKey: "key-from-staging" },
    // A profile without a key must not borrow the top-level (production?) key.
    { name: "profile without a key sends none", flags: { env: "partial" }, env: {}, apiKey: undefined },
  ])("API key: $name", async ({ flags, env, apiKey }) => {
    expect((await resolve(flags, env)).apiKey).toBe(apiKey);
  });

  it("falls back to the default base URL without a config file", async () => {
    const settings = await resolveSettings({}, { env: {}, config: fileConfigStore(join(tmpdir(), "absent-petstore.json")) });
    expect(settings).toMatchObject({ baseUrl: DEFAULT_BASE_URL, apiKey: undefined, timeoutMs: 10_000, retries: 3, json: false, verbose: false, color: true });
  });

  it("turns colour off with --no-color or NO_COLOR", async () => {
    expect((await resolve({ color: false })).color).toBe(false);
    expect((await resolve({}, { NO_COLOR: "1" })).color).toBe(false);
  });

  it.each([
    [{ env: "nosuch" }, /no environment "nosuch" in .*config\.json; known: staging, partial/],
    [{ env: "bad name!" }, /--env must be a name/],
    [{ timeout: "0" }, /--timeout must be an integer from 1/],
    [{ timeout: "1.5" }, /--timeout must be an integer/],
    [{ retries: "-1" }, /--retries must be an integer from 0 to 20/],
    [{ baseUrl: "ftp://x/v1" }, /base URL must be an http or https URL, got "ftp:\/\/x\/v1" \(from the flag\)/],
    [{ baseUrl: "not a url" }, /base URL must be an http or https URL/],
  ] as [GlobalFlags, RegExp][])("refuses %j as a usage error", async (flags, message) => {
    const error = await resolve(flags).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(message);
  });

  it("takes --timeout and --retries as numbers, and strips a trailing slash from the base URL", async () => {
    const settings = await resolve({ timeout: "250", retries: "0", baseUrl: "http://h:1/v1/" });
    expect(settings).toMatchObject({ timeoutMs: 250, retries: 0, baseUrl: "http://h:1/v1" });
  });
});

describe("describeSources", () => {
  it("says where the base URL and the key came from, for --verbose", async () => {
    expect(describeSources(await resolve({ env: "staging" }, { PETSTORE_API_KEY: "k" }))).toBe(
      "* base URL https://staging.example/v1 from the config file (environment staging); API key from the environment",
    );
    expect(describeSources(await resolve({ baseUrl: "http://h/v1", env: "partial" }))).toBe("* base URL http://h/v1 from the flag; API key none");
  });
});
