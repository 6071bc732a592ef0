// `--log-format json`: one JSON object per line through pino, for log shippers. Only `serve`
// imports this module, and only when JSON was chosen, so the client never loads pino.
import { pino } from "pino";
import { redactSecrets } from "../keys/secrets.js";
import type { LogFields, LogSink, ServerLogger } from "../request-log.js";

export interface JsonLoggerOptions {
  quiet: boolean;
  now: () => number;
}

/**
 * The same lines as the text logger, as fields: `time`, `level`, `msg`, and per request
 * `reqId`, `method`, `path`, `status`, `ms`. Paths and messages pass through redactSecrets
 * as in text; the bootstrap key's info line is the one deliberate exception, as in text.
 */
export function createJsonLogger(sink: LogSink, options: JsonLoggerOptions): ServerLogger {
  const log = pino(
    {
      base: undefined,
      messageKey: "msg",
      // The injected clock, so tests read fixed times; ISO like the text lines.
      timestamp: () => `,"time":"${new Date(options.now()).toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
    },
    { write: (line: string) => sink.write(line) },
  );
  return {
    logsRequests: !options.quiet,
    request(method, path, status, durationMs, requestId) {
      log.info({ reqId: requestId, method, path: redactSecrets(path), status, ms: Math.round(durationMs * 10) / 10 }, "request");
    },
    info(message, fields) {
      log.info(fields ?? {}, message);
    },
    warn(message, fields) {
      log.warn(redactFields(fields), redactSecrets(message));
    },
    error(message, error) {
      const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
      log.error({ err: redactSecrets(detail) }, redactSecrets(message));
    },
    fatal(message) {
      log.fatal(redactSecrets(message));
    },
    audit({ action, ...fields }) {
      log.info({ audit: action, ...fields }, `audit ${action}`);
    },
  };
}

function redactFields(fields: LogFields | undefined): LogFields {
  if (!fields) return {};
  const out: LogFields = {};
  for (const [name, value] of Object.entries(fields)) out[name] = typeof value === "string" ? redactSecrets(value) : value;
  return out;
}
