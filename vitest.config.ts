import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    reporters: ["default", "./test/summary-reporter.ts"],
    pool: "forks",
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Subprocess and real-server tests: two cores, so two files at a time.
    maxWorkers: 2,
  },
});
