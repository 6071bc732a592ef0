import { redactSecrets } from "./keys/secrets.js";

/** Somewhere log lines go: process.stderr in production, a buffer in tests. */
export interface LogSink {
  write(chunk: string): unknown;
}

/** Structured detail of a line: JSON lines carry it as fields, text lines as `name=value`. */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

/** An admin change: who (the acting key's id), what, on which key, and when (the line's time). Never a secret. */
export interface AuditEntry {
  action: "key.created" | "key.revoked" | "key.rotated";
  actor: string;
  keyId: string;
  requestId?: string;
  plan?: string;
}

export interface ServerLogger {
  request(method: string, path: string, status: number, durationMs: number, requestId?: string): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  audit(entry: AuditEntry): void;
  /** An unexpected failure: logged with its stack, never sent to the client. */
  error(message: string, error: unknown): void;
  /** The server cannot start or go on: the last line it writes. */
  fatal(message: string): void;
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
    request(method, path, status, durationMs, requestId) {
      const id = requestId === undefined ? "" : ` id=${requestId}`;
      sink.write(`${stamp()} ${method} ${redactSecrets(path)} ${status} ${durationMs.toFixed(1)}ms${id}\n`);
    },
    info(message, fields) {
      sink.write(`${message}${textFields(fields)}\n`);
    },
    warn(message, fields) {
      sink.write(`warning: ${redactSecrets(message + textFields(fields))}\n`);
    },
    audit({ action, ...fields }) {
      sink.write(`${stamp()} audit ${action}${textFields(fields)}\n`);
    },
    error(message, error) {
      const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
      sink.write(redactSecrets(`${stamp()} error: ${message}\n${detail}\n`));
    },
    fatal(message) {
      sink.write(`petstore serve: ${redactSecrets(message)}\n`);
    },
  };
}

/** ` name=value` pairs; values with spaces are quoted so the line still splits on spaces. */
export function textFields(fields: LogFields | undefined): string {
  if (!fields) return "";
  let text = "";
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const plain = String(value);
    text += ` ${name}=${/[\s"]/.test(plain) ? JSON.stringify(plain) : plain}`;
  }
  return text;
}
