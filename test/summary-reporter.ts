import type { Reporter, TestModule } from "vitest/node";

/**
 * Ends the run with the plain `N passed, N failed` line that any CI can read. A file whose own
 * hooks or imports failed counts as one more failure: its tests may all have passed.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    let brokenFiles = 0;
    for (const module of testModules) {
      if (module.errors().length > 0) brokenFiles++;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
    }
    const broken = brokenFiles ? ` (and ${brokenFiles} file${brokenFiles === 1 ? "" : "s"} failed outside its tests)` : "";
    process.stdout.write(`\n${passed} passed, ${failed + brokenFiles} failed${skipped ? `, ${skipped} skipped` : ""}${broken}\n`);
  }
}
