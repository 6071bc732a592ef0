import { messageOf } from "../support/error-text.js";
import type { CliContext } from "./context.js";
import { ApiError, NetworkError, SilentError, UsageError } from "./errors.js";
import { labelled } from "./output/notice.js";
import { stderrOf } from "./output/stream.js";
import type { ColorMode } from "./settings.js";

/**
 * Prints an error to stderr: `Error: <message> (<code>, HTTP <status>)`, then a hint where one
 * helps. With --json, one JSON object instead: the server's Error body, or `{code, message}`
 * for failures without an answer (code `unreachable`, `timeout` or `cli_error`); a 429 or 503
 * that said when to come back also carries `retryAfter` in seconds.
 */
export function reportError(error: unknown, ctx: CliContext, options: { json: boolean; color: ColorMode }): void {
  if (error instanceof SilentError) return;
  const stderr = stderrOf(ctx, options);
  if (error instanceof UsageError) {
    stderr.write(labelled("Error", `${error.message}\n(run with --help for usage)`, stderr));
    return;
  }
  if (options.json) {
    stderr.write(`${JSON.stringify(jsonError(error))}\n`);
    return;
  }
  if (error instanceof ApiError) {
    stderr.write(labelled("Error", `${error.body.message} (${error.body.code}, HTTP ${error.body.status})`, stderr));
  } else {
    stderr.write(labelled("Error", messageOf(error), stderr));
  }
  const hint = error instanceof ApiError || error instanceof NetworkError ? error.hint : undefined;
  if (hint) stderr.write(`${hint}\n`);
}

function jsonError(error: unknown): object {
  if (error instanceof ApiError) return error.retryAfter === undefined ? error.body : { ...error.body, retryAfter: error.retryAfter };
  if (error instanceof NetworkError) return { code: error.code, message: error.message };
  return { code: "cli_error", message: messageOf(error) };
}
