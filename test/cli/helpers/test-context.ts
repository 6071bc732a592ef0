// A CliContext for in-process tests: buffers instead of streams, a chosen TTY flag,
// a sleep that records instead of waiting.
import type { CliContext } from "../../../src/cli/context.js";

export interface TestContextOptions {
  env?: Record<string, string | undefined>;
  isStdoutTTY?: boolean;
  isStderrTTY?: boolean;
  isStdinTTY?: boolean;
  stdin?: string;
  homedir?: string;
  now?: () => number;
  random?: () => number;
}

export interface TestContext {
  ctx: CliContext;
  stdout(): string;
  stderr(): string;
  /** Every delay passed to sleep, in order. */
  sleeps: number[];
}

export function createTestContext(options: TestContextOptions = {}): TestContext {
  let stdout = "";
  let stderr = "";
  const sleeps: number[] = [];
  const ctx: CliContext = {
    io: {
      stdout: { write: (chunk: string) => (stdout += chunk) },
      stderr: { write: (chunk: string) => (stderr += chunk) },
      readStdin: async () => options.stdin ?? "",
      isStdinTTY: options.isStdinTTY ?? false,
      isStdoutTTY: options.isStdoutTTY ?? false,
      isStderrTTY: options.isStderrTTY ?? false,
    },
    env: options.env ?? {},
    now: options.now ?? (() => Date.now()),
    homedir: options.homedir ?? "/nonexistent-home",
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: options.random ?? (() => 0.5),
  };
  return { ctx, stdout: () => stdout, stderr: () => stderr, sleeps };
}
