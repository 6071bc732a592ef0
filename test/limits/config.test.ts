import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LimitsConfigError, loadServeConfig } from "../../src/limits/config.js";
import { defaultLimitsConfig } from "../../src/limits/plans.js";

let dir: string;
let sequence = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "petstore-config-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function configFile(content: unknown): Promise<string> {
  const path = join(dir, `config-${++sequence}.json`);
  await writeFile(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

describe("loadServeConfig", () => {
  it("an empty object gives exactly the defaults", async () => {
    expect(await loadServeConfig(await configFile({}))).toEqual(defaultLimitsConfig());
  });

  it("overrides any subset and keeps the rest", async () => {
    const config = await loadServeConfig(
      await configFile({
        plans: { free: { perMinute: 5 }, business: { perDay: 7 } },
        admin: { perMinute: 10 },
        ban: { threshold: 2, durationSeconds: 60 },
      }),
    );
    expect(config.plans).toEqual({
      free: { perMinute: 5, perDay: 1_000 },
      pro: { perMinute: 300, perDay: 10_000 },
      business: { perMinute: 1_000, perDay: 7 },
    });
    expect(config.admin).toEqual({ perMinute: 10, perDay: 100_000_000 });
    expect(config.ban).toEqual({ threshold: 2, durationSeconds: 60 });
  });

  it("anonymous follows the free plan unless overridden itself", async () => {
    const followsFree = await loadServeConfig(await configFile({ plans: { free: { perMinute: 5 } } }));
    expect(followsFree.anonymous).toEqual({ perMinute: 5, perDay: 1_000 });
    const own = await loadServeConfig(await configFile({ anonymous: { perMinute: 100, perDay: 5_000 } }));
    expect(own.anonymous).toEqual({ perMinute: 100, perDay: 5_000 });
    expect(own.plans.free).toEqual({ perMinute: 60, perDay: 1_000 });
  });

  it.each([
    { content: { plans: { free: { perMinute: 0 } } }, message: "plans.free.perMinute: must be at least 1" },
    { content: { plans: { pro: { perDay: 1.5 } } }, message: "plans.pro.perDay: must be an integer between 1 and" },
    { content: { anonymous: { perMinute: "60" } }, message: "anonymous.perMinute: must be an integer" },
    { content: { admin: { perDay: 2 ** 60 } }, message: "admin.perDay: must be an integer" },
    { content: { ban: { threshold: 0 } }, message: "ban.threshold: must be greater than 0" },
    { content: { ban: { durationSeconds: -5 } }, message: "ban.durationSeconds: must be at least 1" },
    { content: { ban: 3 }, message: "ban: must be an object" },
    { content: { port: 8080 }, message: "port: unknown field" },
    { content: { plans: { free: { perMinut: 5 } } }, message: "plans.free.perMinut: unknown field" },
    {
      content: { plans: { enterprise: {} } },
      message: "plans.enterprise: unknown field (enterprise keys carry their own limits)",
    },
    { content: [], message: "must be a JSON object" },
    { content: "{ plans: ", message: "not valid JSON" },
  ])("rejects $content: $message", async ({ content, message }) => {
    const path = await configFile(content);
    const error = await loadServeConfig(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LimitsConfigError);
    expect((error as Error).message).toContain(`invalid config file ${path}: `);
    expect((error as Error).message).toContain(message);
  });

  it("names the field on the error object", async () => {
    const path = await configFile({ plans: { free: { perMinute: 0 } } });
    const error = await loadServeConfig(path).catch((e: unknown) => e);
    expect((error as LimitsConfigError).field).toBe("plans.free.perMinute");
  });

  it("a missing file names the file", async () => {
    const path = join(dir, "absent.json");
    await expect(loadServeConfig(path)).rejects.toThrow(`invalid config file ${path}: cannot be read (ENOENT)`);
  });
});
