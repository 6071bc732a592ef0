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
  return {
    io: {
      stdout: process.stdout,
      stderr: process.stderr,
      readStdin: () => readAll(process.stdin),
      isStdoutTTY: process.stdout.isTTY === true,
      isStderrTTY: process.stderr.isTTY === true,
    },
    env: process.env,
    now: () => Date.now(),
    homedir: homedir(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: Math.random,
  };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}
