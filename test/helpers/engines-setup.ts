// vitest globalSetup of the "postgres" project: one PostgreSQL and one Redis for the whole run.
// When they cannot start, the run fails: these tests are never skipped.
import type { TestProject } from "vitest/node";
import { startPostgres, startRedis, type Engine } from "./engines.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Superuser URL of the test cluster's `postgres` database; tests create their own databases. */
    postgresUrl: string;
    /** Without a database number; each test server takes its own (test-backend.ts). */
    redisUrl: string;
    /** "postgres" in the project that runs the API suites over PostgreSQL and Redis. */
    backend: "lowdb" | "postgres";
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const results = await Promise.allSettled([startPostgres(), startRedis()]);
  const started = results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const stopAll = async () => void (await Promise.all(started.map((engine: Engine) => engine.stop())));
  const [postgres, redis] = results;
  if (postgres?.status !== "fulfilled" || redis?.status !== "fulfilled") {
    await stopAll();
    const reasons = results.flatMap((result) => (result.status === "rejected" ? [String(result.reason)] : []));
    throw new Error(`cannot start the test PostgreSQL and Redis:\n${reasons.join("\n")}`);
  }
  project.provide("postgresUrl", postgres.value.url);
  project.provide("redisUrl", redis.value.url);
  return stopAll;
}
