// `petstore status` against the API in memory: every answer is one the document allows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { apiError, inMemoryApi, type ScriptedAnswer } from "./helpers/in-memory-api.js";
import { createTestContext, type TestContextOptions } from "./helpers/test-context.js";

const BASE_URL = "http://127.0.0.1:3999/v1";
const NOW = Date.UTC(2030, 0, 1, 20, 14, 18);
const current = {
  key: {
    id: "key_1", prefix: "ps_abc123", plan: "pro", name: "ci", admin: false, scopes: ["pets:read", "pets:write", "orders:read", "orders:write", "events:read"],
    limits: { perMinute: 300, perDay: 10000 },
    createdAt: "2030-01-01T03:04:05.000Z", revokedAt: null, lastUsedAt: null,
  },
  usage: {
    minute: { limit: 300, remaining: 298, resetAt: "2030-01-01T20:15:00.000Z" },
    day: { limit: 10000, remaining: 9990, resetAt: "2030-01-02T00:00:00.000Z" },
    bannedUntil: null,
  },
  server: { version: "0.1.0" },
};

async function status(argv: string[], answers: ScriptedAnswer[], options: TestContextOptions = {}) {
  const api = inMemoryApi(answers);
  const test = createTestContext({
    now: () => NOW,
    ...options,
    api,
    env: { PETSTORE_BASE_URL: BASE_URL, PETSTORE_API_KEY: "ps_test", PETSTORE_CONFIG: "/nonexistent/c.json", ...options.env },
  });
  const code = await main(["status", ...argv], test.ctx);
  return { code, stdout: test.stdout(), stderr: test.stderr(), requests: api.requests };
}

// Resets are shown in local time: Node reads TZ when a Date is formatted.
const savedTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = "UTC";
});
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

describe("petstore status", () => {
  it("shows the base URL, profile, server version, key, limits and both windows with their resets", async () => {
    const result = await status([], [{ status: 200, body: current }]);
    expect(result.requests.map((request) => request.path)).toEqual(["/v1/keys/current"]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toBe(
      `Base URL ${BASE_URL}\n` +
        "Profile  none (top level of the config file)\n" +
        "Server   reachable, version 0.1.0\n" +
        'Key      key_1 (ps_abc123…) "ci", plan pro\n' +
        "Scopes   all: pets:read, pets:write, orders:read, orders:write, events:read\n" +
        "Limits   300 a minute, 10,000 a day\n" +
        "Minute   298 of 300 left this minute, resets at 20:15 UTC (in 42 s)\n" +
        "Day      9,990 of 10,000 left today, resets at 00:00 UTC (in 3 h 46 min)\n",
    );
  });

  it("shows the scopes of a key that cannot do everything, and says an admin key can do the admin operations too", async () => {
    const narrow = { ...current, key: { ...current.key, scopes: ["pets:read", "events:read"] } };
    expect((await status([], [{ status: 200, body: narrow }])).stdout).toContain('plan pro\nScopes   pets:read, events:read\nLimits ');
    const admin = { ...current, key: { ...current.key, admin: true } };
    expect((await status([], [{ status: 200, body: admin }])).stdout).toContain(
      "Scopes   all: pets:read, pets:write, orders:read, orders:write, events:read, and the admin operations\n",
    );
  });

  it("prints one JSON object with --json", async () => {
    const result = await status(["--json"], [{ status: 200, body: current }]);
    expect(JSON.parse(result.stdout)).toEqual({
      baseUrl: BASE_URL, profile: null, server: { reachable: true, version: "0.1.0" }, key: current.key, usage: current.usage,
    });
  });

  it("shows a ban", async () => {
    const banned = { ...current, usage: { ...current.usage, bannedUntil: "2030-01-01T20:29:18.000Z" } };
    expect((await status([], [{ status: 200, body: banned }])).stdout).toContain("Banned   until 20:29 UTC (in 15 min)\n");
  });

  it("shows the reset in the local zone and in UTC where they differ", async () => {
    const result = await status([], [{ status: 200, body: current }], { timeZone: "Europe/Paris" });
    expect(result.stdout).toContain("Day      9,990 of 10,000 left today, resets at 01:00 local, 00:00 UTC (in 3 h 46 min)\n");
  });
});

describe("petstore status with the key's quota spent", () => {
  // What the server answers GET /keys/current once a free key's day is spent, 25 minutes before midnight UTC.
  const DAY_LEFT_S = 25 * 60;
  const spent = (code = "rate_limited", retryAfter = DAY_LEFT_S) =>
    apiError(429, code, `rate limit exceeded; retry in ${retryAfter} s`, {
      "retry-after": String(retryAfter),
      "x-ratelimit-limit": "1000",
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": String((NOW_SPENT + DAY_LEFT_S * 1000) / 1000),
      "ratelimit-policy": '"minute";q=60;w=60, "day";q=1000;w=86400',
      ratelimit: `"minute";r=60;t=42, "day";r=0;t=${DAY_LEFT_S}`,
    });
  const NOW_SPENT = Date.UTC(2030, 0, 1, 23, 35, 0);

  it("shows the key, its plan and the spent day from the 429's headers, at once, and exits 0", async () => {
    const result = await status([], [spent()], { now: () => NOW_SPENT, env: { PETSTORE_API_KEY: "ps_abc123TheRestOfTheSecret" } });
    expect(result.requests).toHaveLength(1);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toBe(
      `Base URL ${BASE_URL}\n` +
        "Profile  none (top level of the config file)\n" +
        "Server   reachable, version not told while the key's quota is spent\n" +
        "Key      ps_abc123…, plan free (judged by its limits)\n" +
        "Scopes   not told while the key's quota is spent\n" +
        "Limits   60 a minute, 1,000 a day\n" +
        "Minute   60 of 60 left this minute, resets at 23:35 UTC (in 42 s)\n" +
        "Day      0 of 1,000 left today, resets at 00:00 UTC (in 25 min)\n",
    );
    expect(result.stdout).not.toContain("TheRestOfTheSecret");
  });

  it("does not wait for the minute's reset when the minute is spent: the 429 is the answer", async () => {
    const result = await status([], [spent("rate_limited", 42)], { now: () => NOW_SPENT });
    expect(result).toMatchObject({ code: 0, requests: [expect.anything()] });
  });

  it("says so in the JSON: the same usage, the key as far as known, and what refused", async () => {
    const result = await status(["--json"], [spent()], { now: () => NOW_SPENT });
    expect(JSON.parse(result.stdout)).toEqual({
      baseUrl: BASE_URL,
      profile: null,
      server: { reachable: true, version: null },
      key: { prefix: "ps_test", plan: "free", limits: { perMinute: 60, perDay: 1000 } },
      usage: {
        minute: { limit: 60, remaining: 60, resetAt: "2030-01-01T23:35:42.000Z" },
        day: { limit: 1000, remaining: 0, resetAt: "2030-01-02T00:00:00.000Z" },
        bannedUntil: null,
      },
      refused: { code: "rate_limited", retryAfter: DAY_LEFT_S },
    });
  });

  it("shows a ban from the 429 that refused the read", async () => {
    const result = await status([], [spent("key_banned", 900)], { now: () => NOW_SPENT });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Banned   until 23:50 UTC (in 15 min)\n");
  });

  it("without a key, only proves the API answers, and says how to set one", async () => {
    const result = await status([], [{ status: 200, body: { openapi: "3.1.0", info: {}, paths: {} } }], { env: { PETSTORE_API_KEY: undefined } });
    expect(result.requests.map((request) => request.path)).toEqual(["/v1/openapi.json"]);
    expect(result.stdout).toContain("Server   reachable, version unknown (it is told only to a key)\nKey      none set");
  });

  it("reports a refused key as any command does: exit 3 and the hint", async () => {
    const result = await status([], [apiError(401, "unauthorized", "the API key is not valid")]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("The API key was refused.");
  });
});
