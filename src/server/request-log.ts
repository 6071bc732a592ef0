import { redactSecrets } from "./keys/secrets.js";

/** Somewhere log lines go: process.stderr in production, a buffer in tests. */
export interface LogSink {
  write(chunk: string): unknown;
}

export interface ServerLogger {
  request(method: string, path: string, status: number, durationMs: number): void;
  info(message: string): void;
  warn(message: string): void;
  /** An unexpected failure: logged with its stack, never sent to the client. */
  error(message: string, error: unknown): void;
  readonly logsRequests: boolean;
}

/**
 * One line per request on stderr (`--quiet` turns those off; warnings and errors stay). Request
 * lines, warnings and errors pass through redactSecrets; info lines (the bootstrap key) do not.
 */
export function createLogger(sink: LogSink, options: { quiet: boolean; now: () => number }): ServerLogger {
  const stamp = () => new Date(options.now()).toISOString();
  return {
    logsRequests: !options.quiet,
    request(method, path, status, durationMs) {
      sink.write(`${stamp()} ${method} ${redactSecrets(path)} ${status} ${durationMs.toFixed(1)}ms\n`);
    },
    info(message) {
      sink.write(`${message}\n`);
    },
    warn(message) {
      sink.write(`warning: ${redactSecrets(message)}\n`);
    },
    error(message, error) {
      const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
      sink.write(redactSecrets(`${stamp()} error: ${message}\n${detail}\n`));
    },
  };
}
