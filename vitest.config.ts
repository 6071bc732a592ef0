import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";

// The version and licence as the build writes them in (scripts/build/package-defines.mjs), so
// the TypeScript source under test says what the bundle says.
const pkg = JSON.parse(readFileSync(new URL("package.json", import.meta.url), "utf8")) as { version: string; license: string };

// The executable and the image, built by `npm run package` (slow: about a minute, then a run each).
const RELEASE_TESTS = ["test/release/**/*.test.ts"];
// Tests that need a real PostgreSQL and Redis, beyond the API suites run over them. db-restore is
// file-only (a PostgreSQL store restores from a dump), so it stays in the slow lane.
const ENGINE_TESTS = ["test/scale/**/*.test.ts", "test/store/pet-search-postgres.test.ts", "test/store/name-search-migration.test.ts", "test/limits/redis-*.test.ts", "test/e2e/db-backup.test.ts", "test/e2e/db-transfer.test.ts", "test/e2e/db-webhooks-transfer.test.ts", "test/e2e/db-old-keys.test.ts", "test/store/postgres-*.test.ts"];
// Fault suites whose code differs per engine: run over both, as the API suites are.
const FAULT_TESTS_PER_ENGINE = ["test/fault/security-streams.test.ts"];
// The slow lane: whole processes (the built CLI, `petstore serve`, crashes and kills), real
// shells and browsers, and the third-party judges. Everything else, the fast lane, runs in
// process (app.fetch, the OpenAPI-checked in-memory client) and is `npm run test:fast`.
const SLOW_TESTS = [
  "test/cli/e2e/**/*.test.ts",
  "test/e2e/**/*.test.ts",
  "test/fault/**/*.test.ts",
  "test/browser/**/*.test.ts",
  "test/soak/**/*.test.ts",
  "test/contract/third-party-lint.test.ts",
  "test/contract/generated-client.test.ts",
  "test/contract/hey-api-client.test.ts",
  "test/contract/openapi-served.test.ts",
  "test/cli/completion.test.ts",
  "test/cli/stdio.test.ts",
  "test/cli/cors-origins.test.ts",
  "test/support/code-cache.test.ts",
  "test/support/lazy-engines.test.ts",
  "test/support/lazy-ops.test.ts",
  "test/support/lean-client.test.ts",
  "test/support/startup-files.test.ts",
  "test/store/lock.test.ts",
  // In process, but it timed out twice in the fast lane's shared modules in CI (a full `npm test`
  // from a fresh clone) and never alone: isolated here until the shared state is found.
  "test/server/seed-webhooks.test.ts",
];

export default defineConfig({
  define: { PETSTORE_VERSION: JSON.stringify(pkg.version), PETSTORE_LICENSE: JSON.stringify(pkg.license) },
  test: {
    reporters: ["default", "./test/summary-reporter.ts"],
    pool: "forks",
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Subprocess and real-server tests: two cores, so two files at a time.
    maxWorkers: 2,
    projects: [
      {
        // The fast lane, over the file engine. Its files share each worker's modules (isolate: false):
        // the app is imported once per worker rather than once per file. So spies, stubbed globals
        // and environment variables are undone after each test, and a file must not leave state behind.
        extends: true,
        test: { name: "lowdb", isolate: false, setupFiles: ["test/helpers/shared-worker-guard.ts"], restoreMocks: true, unstubGlobals: true, unstubEnvs: true, include: ["test/**/*.test.ts"], exclude: [...ENGINE_TESTS, ...SLOW_TESTS, ...RELEASE_TESTS] },
      },
      {
        extends: true,
        test: { name: "slow", include: SLOW_TESTS, exclude: ENGINE_TESTS },
      },
      {
        // The single executable and the container image, built from release/ (npm run package):
        // its global setup builds them when missing or stale.
        extends: true,
        // Each test runs the executable a few times over: slower than 20 s on a busy machine.
        test: { name: "release", include: RELEASE_TESTS, globalSetup: ["test/release/build-setup.ts"], testTimeout: 60_000 },
      },
      {
        // The same API suites over PostgreSQL and Redis (test-server.ts reads `backend`), and the
        // tests that need those engines. Their global setup starts them once per run.
        extends: true,
        test: {
          name: "postgres",
          include: ["test/server/**/*.test.ts", "test/store/pet-store.test.ts", "test/store/pet-changes.test.ts", "test/store/pet-search-engines.test.ts", "test/store/key-store.test.ts", "test/store/idempotency-store.test.ts", ...FAULT_TESTS_PER_ENGINE, ...ENGINE_TESTS],
          globalSetup: ["test/helpers/engines-setup.ts"],
          provide: { backend: "postgres" },
        },
      },
    ],
  },
});
