import type { CliContext } from "./context.js";
import { ApiError, NetworkError, SilentError, UsageError } from "./errors.js";

/** Prints an error to stderr: one line, then a hint where one helps; JSON with --json. */
export function reportError(error: unknown, ctx: CliContext, options: { json: boolean }): void {
  if (error instanceof SilentError) return;
  const { stderr } = ctx.io;
  if (error instanceof ApiError) {
    if (options.json) stderr.write(`${JSON.stringify(error.body)}\n`);
    else stderr.write(`Error: ${error.body.message} (${error.body.code}, HTTP ${error.body.status})\n`);
    if (error.hint && !options.json) stderr.write(`${error.hint}\n`);
    return;
  }
  if (error instanceof UsageError) {
    stderr.write(`Error: ${error.message}\n(run with --help for usage)\n`);
    return;
  }
  if (error instanceof NetworkError) {
    stderr.write(`Error: ${error.message}\n`);
    if (error.hint) stderr.write(`${error.hint}\n`);
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(`Error: ${message}\n`);
}
