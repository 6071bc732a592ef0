import { messageOf } from "../support/error-text.js";
import type { CliContext } from "./context.js";
import { ApiError, NetworkError, OutputClosedError, QuotaSpentError, SilentError, UsageError } from "./errors.js";
import { labelled } from "./output/notice.js";
import { escapeForTerminal, MAX_MESSAGE_CHARS, safeLine, safeLines } from "./output/safe-text.js";
import { stderrOf, type OutStream } from "./output/stream.js";
import type { ColorMode } from "./settings.js";

/**
 * Prints an error to stderr: `Error: <message> (<code>, HTTP <status>)`, then a hint where one
 * helps. With --json, one JSON object instead: the server's Error body, or `{code, message}`
 * for failures without an answer (code `unreachable`, `timeout` or `cli_error`; `rate_limited`
 * for a quota spent past --max-wait); a 429 or 503 that said when to come back, and a spent
 * quota, also carry `retryAfter` in seconds. What the server wrote is
 * printed safely (safe-text.ts): no control characters, at most MAX_MESSAGE_CHARS of a message.
 */
export function reportError(error: unknown, ctx: CliContext, options: { json: boolean; color: ColorMode }): void {
  if (error instanceof SilentError || error instanceof OutputClosedError) return;
  try {
    writeError(error, stderrOf(ctx, options), options.json);
  } catch (failed) {
    // stderr's own reader has gone: nobody is left to tell.
    if (!(failed instanceof OutputClosedError)) throw failed;
  }
}

function writeError(error: unknown, stderr: OutStream, json: boolean): void {
  if (error instanceof UsageError) {
    stderr.write(labelled("Error", `${error.message}\n(run with --help for usage)`, stderr));
    return;
  }
  if (json) {
    stderr.write(`${escapeForTerminal(JSON.stringify(jsonError(error)))}\n`);
    return;
  }
  if (error instanceof ApiError) {
    const { message, code, status } = error.body;
    stderr.write(labelled("Error", `${safeLine(message)} (${safeLine(code, 100)}, HTTP ${status})`, stderr));
  } else {
    stderr.write(labelled("Error", safeLine(messageOf(error)), stderr));
  }
  const hint = error instanceof ApiError || error instanceof NetworkError || error instanceof QuotaSpentError ? error.hint : undefined;
  if (hint) stderr.write(`${safeLines(hint)}\n`);
}

/** JSON escapes control characters itself; a giant message is still cut, as on the terminal. */
function jsonError(error: unknown): object {
  if (error instanceof ApiError) {
    const body = { ...error.body, message: capped(error.body.message) };
    return error.retryAfter === undefined ? body : { ...body, retryAfter: error.retryAfter };
  }
  if (error instanceof NetworkError) return { code: error.code, message: error.message };
  if (error instanceof QuotaSpentError) return { code: "rate_limited", message: error.message, retryAfter: error.retryAfter };
  return { code: "cli_error", message: capped(messageOf(error)) };
}

function capped(message: string): string {
  return message.length <= MAX_MESSAGE_CHARS ? message : `${message.slice(0, MAX_MESSAGE_CHARS)}… (${message.length - MAX_MESSAGE_CHARS} more characters not shown)`;
}
