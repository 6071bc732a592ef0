import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { fileConfigStore } from "../../src/cli/config-file.js";
import { UsageError } from "../../src/cli/errors.js";
import { DEFAULT_BASE_URL, describeSources, resolveColorMode, resolveSettings, type GlobalFlags } from "../../src/cli/settings.js";

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
      keyonly: { apiKey: "key-from-keyonly" },
    },
  };
  await writeFile(configPath, JSON.stringify(config));
});

const resolve = (flags: GlobalFlags, env: Record<string, string | undefined> = {}) =>
  resolveSettings(flags, { env, config: fileConfigStore(configPath) });

describe("resolveSettings: a flag, then the environment, then the config file, then the default", () => {
  it.each([
    { name: "flag beats everything", flags: { baseUrl: "http://flag/v1", env: "staging" }, env: { PETSTORE_BASE_URL: "http://envvar/v1" }, baseUrl: "http://flag/v1", source: "flag" },
    { name: "environment beats the config file", flags: {}, env: { PETSTORE_BASE_URL: "http://envvar/v1", PETSTORE_API_KEY: "key-env" }, baseUrl: "http://envvar/v1", source: "environment" },
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
    { name: "environment", flags: {}, env: { PETSTORE_API_KEY: "key-env", PETSTORE_BASE_URL: "http://envvar/v1" }, apiKey: "key-env" },
    { name: "profile", flags: { env: "staging" }, env: {}, apiKey: "key-from-staging" },
    // A profile without a key must not borrow the top-level (production?) key.
    { name: "profile without a key sends none", flags: { env: "partial" }, env: {}, apiKey: undefined },
  ])("API key: $name", async ({ flags, env, apiKey }) => {
    expect((await resolve(flags, env)).apiKey).toBe(apiKey);
  });

  it("falls back to the default base URL without a config file", async () => {
    const settings = await resolveSettings({}, { env: {}, config: fileConfigStore(join(tmpdir(), "absent-petstore.json")) });
    expect(settings).toMatchObject({ baseUrl: DEFAULT_BASE_URL, apiKey: undefined, timeoutMs: 10_000, retries: 3, json: false, verbose: false, color: "auto" });
  });

  it("turns colour off with --no-color or NO_COLOR", async () => {
    expect((await resolve({ color: false })).color).toBe("never");
    expect((await resolve({}, { NO_COLOR: "1" })).color).toBe("never");
  });

  it.each([
    [{}, {}, "auto"],
    [{}, { TERM: "dumb" }, "never"],
    [{}, { NO_COLOR: "" }, "auto"],
    [{ color: "never" }, {}, "never"],
    [{ color: "always" }, { NO_COLOR: "1", TERM: "dumb" }, "always"],
    [{ color: "auto" }, { NO_COLOR: "1" }, "never"],
  ] as const)("--color %j with %j is %s: the flag wins, then NO_COLOR and TERM=dumb", (flags, env, mode) => {
    expect(resolveColorMode(flags, env)).toBe(mode);
  });

  it.each([
    [{ env: "nosuch" }, /no environment "nosuch" in .*config\.json; known: staging, partial, keyonly/],
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
    expect(describeSources(await resolve({ env: "staging", apiKey: "k" }))).toBe(
      "* base URL https://staging.example/v1 from the config file (environment staging); API key from the flag",
    );
    expect(describeSources(await resolve({}, { PETSTORE_API_KEY: "k", PETSTORE_BASE_URL: "http://h/v1" }))).toBe(
      "* base URL http://h/v1 from the environment; API key from the environment",
    );
    expect(describeSources(await resolve({ baseUrl: "http://h/v1", env: "partial" }))).toBe("* base URL http://h/v1 from the flag; API key none");
  });
});

describe("a key goes only with the base URL it was set with", () => {
  const absent = () => join(tmpdir(), "absent-petstore.json");
  const ENV_KEY = "ps_envsecret_0000000000";
  const ok = undefined;

  it.each([
    // A chosen profile is a pair: the environment may not replace either half.
    { name: "env key + --env profile", flags: { env: "staging" }, env: { PETSTORE_API_KEY: ENV_KEY }, refused: /^PETSTORE_API_KEY would replace half of profile staging \(chosen by --env\), whose base URL and key go together; the key from PETSTORE_API_KEY would be sent to https:\/\/staging\.example\/v1\.\nTo use it, pass the base URL on the command line \(--base-url <url>\); or unset PETSTORE_API_KEY/ },
    { name: "env base URL + PETSTORE_ENV profile", flags: {}, env: { PETSTORE_ENV: "staging", PETSTORE_BASE_URL: "http://other/v1" }, refused: /^PETSTORE_BASE_URL would replace half of profile staging \(chosen by PETSTORE_ENV\)/ },
    { name: "env pair + --env profile", flags: { env: "staging" }, env: { PETSTORE_BASE_URL: "http://other/v1", PETSTORE_API_KEY: ENV_KEY }, refused: /^PETSTORE_BASE_URL and PETSTORE_API_KEY would replace half of profile staging/ },
    { name: "env base URL + a profile without a key", flags: { env: "partial" }, env: { PETSTORE_BASE_URL: "http://other/v1" }, refused: /would replace half of profile partial/ },
    { name: "a profile's key without its base URL", flags: { env: "keyonly" }, env: {}, refused: /^profile keyonly has an API key but no base URL, so its key would go to the default http:\/\/127\.0\.0\.1:3000\/v1\.\nSet one with: petstore config set base-url <url> --env keyonly/ },
    // Without a profile: the environment pairs with the environment, or a key with the default.
    { name: "env key + the file's base URL", flags: {}, env: { PETSTORE_API_KEY: ENV_KEY }, refused: /^the key from PETSTORE_API_KEY would be sent to http:\/\/file-top\.example\/v1 \(from the config file\), a base URL it was not set with\.\nTo send it there, pass the base URL on the command line \(--base-url <url>\); or set PETSTORE_BASE_URL with it/ },
    { name: "env base URL + the file's key", flags: {}, env: { PETSTORE_BASE_URL: "http://envvar/v1" }, refused: /^the key from the config file would be sent to http:\/\/envvar\/v1 \(from PETSTORE_BASE_URL\), a base URL it was not set with\.\nTo send it there, pass the key on the command line \(--api-key <key>\)/ },
    { name: "env base URL + a profile's key", flags: { env: "staging" }, env: { PETSTORE_BASE_URL: "http://envvar/v1" }, refused: /^PETSTORE_BASE_URL would replace half of profile staging \(chosen by --env\)/ },
    // A typed half is explicit: it pairs with the environment's other half (a CI secret, a URL per step).
    { name: "env key + --base-url", flags: { baseUrl: "http://typed/v1" }, env: { PETSTORE_API_KEY: ENV_KEY }, file: absent, refused: ok },
    { name: "env key + --base-url, with the file's pair present", flags: { baseUrl: "http://typed/v1" }, env: { PETSTORE_API_KEY: ENV_KEY }, refused: ok },
    { name: "env key + --base-url, a profile chosen", flags: { env: "staging", baseUrl: "http://typed/v1" }, env: { PETSTORE_API_KEY: ENV_KEY }, refused: ok },
    { name: "env base URL + --api-key", flags: { apiKey: "ps_typed_000000000" }, env: { PETSTORE_BASE_URL: "http://envvar/v1" }, refused: ok },
    { name: "env base URL + --api-key, a profile chosen", flags: { env: "staging", apiKey: "ps_typed_000000000" }, env: { PETSTORE_BASE_URL: "http://envvar/v1" }, refused: ok },
    // Consistent pairs.
    { name: "env key + env base URL", flags: {}, env: { PETSTORE_API_KEY: ENV_KEY, PETSTORE_BASE_URL: "http://envvar/v1" }, refused: ok },
    { name: "env key + the default base URL (the quickstart)", flags: {}, env: { PETSTORE_API_KEY: ENV_KEY }, file: absent, refused: ok },
    { name: "env base URL without any key", flags: {}, env: { PETSTORE_BASE_URL: "http://envvar/v1" }, file: absent, refused: ok },
    { name: "--env profile", flags: { env: "staging" }, env: {}, refused: ok },
    { name: "--api-key with a profile's base URL", flags: { env: "staging", apiKey: "ps_typed_000000000" }, env: {}, refused: ok },
    { name: "--base-url with a profile's key", flags: { env: "staging", baseUrl: "http://typed/v1" }, env: {}, refused: ok },
    { name: "--base-url with the file's key", flags: { baseUrl: "http://typed/v1" }, env: {}, refused: ok },
    { name: "--api-key with the file's base URL", flags: { apiKey: "ps_typed_000000000" }, env: {}, refused: ok },
    { name: "both flags, whatever the environment says", flags: { env: "staging", baseUrl: "http://typed/v1", apiKey: "ps_typed_000000000" }, env: { PETSTORE_API_KEY: ENV_KEY }, refused: ok },
    { name: "the file's pair", flags: {}, env: {}, refused: ok },
  ] as { name: string; flags: GlobalFlags; env: Record<string, string>; file?: () => string; refused: RegExp | undefined }[])(
    "$name",
    async ({ flags, env, file, refused }) => {
      const result = resolveSettings(flags, { env, config: fileConfigStore(file ? file() : configPath) });
      if (refused === undefined) {
        await expect(result).resolves.toBeDefined();
        return;
      }
      const error = await result.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(refused);
      // The refusal names where the halves came from, never a key itself.
      for (const key of [ENV_KEY, "ps_typed_000000000", "key-from-file-top", "key-from-staging", "key-from-keyonly"]) {
        expect((error as Error).message).not.toContain(key);
      }
    },
  );
});
