// `serve --db file.json` must never load pg or the Redis client: each engine is imported only once
// chosen (src/server/open-backends.ts) and its driver lives in that engine's chunk (scripts/build.mjs).
// The built CLI runs with a preload that records every module loaded. A driver counts as loaded
// when a file of it in node_modules was, or a loaded chunk of dist/ bundles it (esbuild marks each
// bundled module with a `// <relative path>/node_modules/<path>` or `// src/<path>` comment). The two
// other cases show that the recording does see pg and the Redis client when they are chosen, so
// the first case can fail.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, TEST_ADMIN_KEY } from "../helpers/serve-process.js";

const PRELOAD = fileURLToPath(new URL("./record-modules.mjs", import.meta.url));
const PG = /node_modules\/pg(-pool|-protocol)?\//;
// petstore's own RESP connection (src/limits/resp/), and ioredis, which it replaced: neither.
const REDIS_CLIENT = /node_modules\/ioredis\/|^src\/limits\/resp\//;
const DIST = fileURLToPath(new URL("../../dist/", import.meta.url));
// Nothing listens on port 1: the connection is refused at once.
const DEAD_POSTGRES = "postgres://petstore@127.0.0.1:1/petstore";
const DEAD_REDIS = "redis://127.0.0.1:1";

const directories: string[] = [];
afterAll(async () => {
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
});

interface Run {
  /** Every module the process loaded: its path or URL, and for a chunk of dist/ each module it bundles. */
  modules: string[];
  code: number | null;
  stderr: string;
}

/** Runs `serve` with `args`; stops it with SIGTERM once it listens, or lets it fail. */
async function serveRecording(args: (dir: string) => string[]): Promise<Run> {
  const dir = await mkdtemp(join(tmpdir(), "petstore-lazy-"));
  directories.push(dir);
  const record = join(dir, "modules.txt");
  const child = spawn(process.execPath, ["--import", PRELOAD, BIN, "serve", "--port", "0", ...args(dir)], {
    env: { ...process.env, NO_COLOR: "1", PETSTORE_ADMIN_KEY: TEST_ADMIN_KEY, PETSTORE_RECORD_MODULES: record },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    const origin = /petstore listening on (http:\/\/[^/\s]+)/.exec(chunk)?.[1];
    // serve installs its SIGTERM handler just after printing this line: one request answered
    // first means it is in place, so the stop is the graceful one (and the exit hook runs).
    if (origin) void fetch(origin).catch(() => undefined).finally(() => child.kill("SIGTERM"));
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const loaded = (await readFile(record, "utf8")).split("\n").filter(Boolean);
  return { modules: loaded.flatMap(withBundled), code, stderr };
}

/** The module itself and, for a chunk of dist/, the node_modules files bundled into it. */
function withBundled(module: string): string[] {
  const path = module.startsWith("file:") ? fileURLToPath(module) : module;
  if (!path.startsWith(DIST) || !path.endsWith(".js")) return [module];
  const bundled = readFileSync(path, "utf8").match(/^\/\/ (\S*node_modules\/|src\/)\S+$/gm) ?? [];
  return [module, ...bundled.map((comment) => comment.slice(3))];
}

describe("serve loads only the engines it is given", () => {
  it("--db file.json: lowdb is loaded, pg and the Redis client are not", async () => {
    const run = await serveRecording((dir) => ["--db", join(dir, "petstore.json")]);
    expect(run.code, run.stderr).toBe(0);
    // The recording sees packages imported lazily from node_modules at all.
    expect(run.modules.some((module) => module.includes("/node_modules/lowdb/"))).toBe(true);
    expect(run.modules.filter((module) => PG.test(module) || REDIS_CLIENT.test(module))).toEqual([]);
  });

  it("--db postgres://...: pg is loaded (the connection then fails), the Redis client is not", async () => {
    const run = await serveRecording(() => ["--db", DEAD_POSTGRES]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/cannot open the PostgreSQL database/);
    expect(run.modules.some((module) => PG.test(module))).toBe(true);
    expect(run.modules.filter((module) => REDIS_CLIENT.test(module))).toEqual([]);
  });

  it("--redis redis://...: the Redis client is loaded (the connection then fails), pg is not", async () => {
    const run = await serveRecording((dir) => ["--db", join(dir, "petstore.json"), "--redis", DEAD_REDIS]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/cannot connect to Redis/);
    expect(run.modules.some((module) => REDIS_CLIENT.test(module))).toBe(true);
    expect(run.modules.filter((module) => PG.test(module))).toEqual([]);
  });
});
