// pino and prom-client are for `serve` alone, and only when asked for: a client command never
// loads either, and `serve` loads pino only for JSON logs and prom-client only for metrics.
// Same recording preload as lazy-engines.test.ts.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, TEST_ADMIN_KEY } from "../helpers/serve-process.js";

const PRELOAD = fileURLToPath(new URL("./record-modules.mjs", import.meta.url));
const PINO = /node_modules\/pino\//;
const PROM = /node_modules\/prom-client\//;

const directories: string[] = [];
afterAll(async () => {
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
});

/** Runs the built CLI with `args`; a `serve` is stopped with SIGTERM once it has answered a request. */
async function recording(args: (dir: string) => string[]): Promise<{ modules: string[]; code: number | null; stderr: string }> {
  const dir = await mkdtemp(join(tmpdir(), "petstore-lazy-ops-"));
  directories.push(dir);
  const record = join(dir, "modules.txt");
  const child = spawn(process.execPath, ["--import", PRELOAD, BIN, ...args(dir)], {
    env: { ...process.env, NO_COLOR: "1", PETSTORE_ADMIN_KEY: TEST_ADMIN_KEY, PETSTORE_RECORD_MODULES: record, PETSTORE_LOG_FORMAT: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    const origin = /petstore listening on (http:\/\/[^/\s]+)/.exec(chunk)?.[1];
    if (origin) void fetch(origin).catch(() => undefined).finally(() => child.kill("SIGTERM"));
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const modules = (await readFile(record, "utf8").catch(() => "")).split("\n").filter(Boolean);
  return { modules, code, stderr };
}

const loaded = (modules: string[], pattern: RegExp) => modules.some((module) => pattern.test(module));

describe("pino and prom-client load only where they are used", () => {
  it("a client command loads neither", async () => {
    const run = await recording(() => ["pets", "list", "--base-url", "http://127.0.0.1:1/v1", "--retries", "0"]);
    expect(run.modules.length).toBeGreaterThan(0);
    expect(loaded(run.modules, PINO)).toBe(false);
    expect(loaded(run.modules, PROM)).toBe(false);
  });

  it("serve with text logs and no metrics loads neither", async () => {
    const run = await recording((dir) => ["serve", "--port", "0", "--db", join(dir, "p.json"), "--log-format", "text"]);
    expect(run.code, run.stderr).toBe(0);
    expect(loaded(run.modules, PINO)).toBe(false);
    expect(loaded(run.modules, PROM)).toBe(false);
  });

  it("serve with JSON logs (the default off a terminal) and --metrics-port loads both", async () => {
    const run = await recording((dir) => ["serve", "--port", "0", "--db", join(dir, "p.json"), "--metrics-port", "0"]);
    expect(run.code, run.stderr).toBe(0);
    expect(loaded(run.modules, PINO)).toBe(true);
    expect(loaded(run.modules, PROM)).toBe(true);
  });
});
