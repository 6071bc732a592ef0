import { homedir } from "node:os";

/** Somewhere text goes: process.stdout in production, a buffer in tests. */
export interface TextSink {
  write(chunk: string): unknown;
}

export interface CliIO {
  stdout: TextSink;
  stderr: TextSink;
  /** Reads all of standard input (for `config set api-key -`). */
  readStdin(): Promise<string>;
  isStdinTTY: boolean;
  isStdoutTTY: boolean;
  isStderrTTY: boolean;
}

/** Every side effect a command may have arrives through this, built once at the edge. */
export interface CliContext {
  io: CliIO;
  env: Readonly<Record<string, string | undefined>>;
  now: () => number;
  homedir: string;
  /** Waits; tests pass one that records the delay instead of sleeping. */
  sleep: (ms: number) => Promise<void>;
  /** Uniform in [0, 1): jitter for backoff. */
  random: () => number;
}

export function createProcessContext(): CliContext {
  // `petstore pets list | head -1`: a closed pipe ends the output, not the process with a stack trace.
  for (const stream of [process.stdout, process.stderr]) stream.on("error", ignoreClosedPipe);
  const forced = forcedTTY(process.env.PETSTORE_FORCE_TTY);
  return {
    io: {
      stdout: process.stdout,
      stderr: process.stderr,
      readStdin: () => readAll(process.stdin),
      isStdinTTY: process.stdin.isTTY === true,
      isStdoutTTY: forced?.stdout ?? process.stdout.isTTY === true,
      isStderrTTY: forced?.stderr ?? process.stderr.isTTY === true,
    },
    env: process.env,
    now: () => Date.now(),
    homedir: homedir(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: Math.random,
  };
}

/**
 * A testing aid: PETSTORE_FORCE_TTY=1 makes the CLI behave as if stdout and stderr were
 * terminals (tables, colour, progress), `stdout` or `stderr` forces one, `0` forces neither.
 */
export function forcedTTY(value: string | undefined): { stdout: boolean; stderr: boolean } | undefined {
  switch (value) {
    case "1":
    case "true":
      return { stdout: true, stderr: true };
    case "0":
    case "false":
      return { stdout: false, stderr: false };
    case "stdout":
      return { stdout: true, stderr: false };
    case "stderr":
      return { stdout: false, stderr: true };
    default:
      return undefined;
  }
}

function ignoreClosedPipe(error: NodeJS.ErrnoException): void {
  if (error.code !== "EPIPE") throw error;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}
