// The end of `pets import`: invalid records with their lines, the summary on stderr, and with
// --json the whole report on stdout for a script to act on. A failure's text is often the
// server's Error message, and an invalid record's quotes the file: both printed as safe lines.
// An import that stopped early says why, and that running it again resumes it.
import { ApiError, NetworkError, QuotaSpentError } from "../errors.js";
import type { ImportStop } from "../internal/import/send-records.js";
import { renderJson } from "./json.js";
import { resetPhrase } from "./reset-time.js";
import { escapeForTerminal, safeLine } from "./safe-text.js";
import type { OutStream } from "./stream.js";

export interface ImportReport {
  total: number;
  created: number;
  replayed: number;
  /** Done by an earlier run of the same file (its journal), so not sent. */
  earlier: number;
  /** Not sent: the import stopped before them. */
  pending: number;
  skipped: { line: number; error: string }[];
  failed: { line: number; error: string }[];
}

export function printInvalid(invalid: readonly { line: number; error: string }[], stderr: OutStream): void {
  const lines = invalid.map((record) => `  line ${record.line}: ${safeLine(record.error)}\n`).join("");
  stderr.write(`Error: ${invalid.length} invalid record${invalid.length === 1 ? "" : "s"}; nothing was sent (--skip-invalid sends the others):\n${lines}`);
}

export function printImportReport(report: ImportReport, out: { stderr: OutStream; stdout: OutStream; json: boolean; stopped: boolean }): void {
  if (report.skipped.length > 0 && !out.json) printSkipped(report.skipped, out.stderr);
  for (const failure of report.failed) out.stderr.write(`Failed line ${failure.line}: ${safeLine(failure.error)}\n`);
  const earlier = report.earlier > 0 ? `${report.earlier} done by an earlier run, ` : "";
  const counts = `${report.created} created, ${report.replayed} replayed, ${earlier}${report.skipped.length} skipped, ${report.failed.length} failed`;
  const records = `${report.total} record${report.total === 1 ? "" : "s"}`;
  out.stderr.write(
    out.stopped ? `Stopped after ${report.total - report.pending} of ${records}: ${counts}, ${report.pending} not sent\n` : `Imported ${records}: ${counts}\n`,
  );
  // Whole in the JSON (a script may need the exact text), but never a raw control on stdout.
  if (out.json) out.stdout.write(escapeForTerminal(renderJson(report)));
}

/** The error an import that stopped ends with: its own cause, and how to resume. */
export function stopError(stop: ImportStop, report: ImportReport, context: { maxWaitMs: number; now: number; timeZone?: string }): Error {
  const done = report.created + report.replayed + report.earlier;
  const resume =
    done === 0 ? "Run the same command again to resume." : `Run the same command again to resume: the ${done} record${done === 1 ? "" : "s"} done are not sent again.`;
  if (stop.kind === "quota") {
    const { window, resumeAt } = stop;
    const which = window?.name === undefined ? "quota" : `${window.name} quota`;
    const left = window?.limit === undefined ? "" : ` (${window.remaining} of ${window.limit} left)`;
    const message = `the key's ${which} is spent${left}; it resets ${resetPhrase(resumeAt, context.now, context.timeZone)}, past --max-wait (${context.maxWaitMs / 1000} s)`;
    const hint = `The import stopped with ${report.pending} records not sent. ${resume.replace("again to", "again after the reset to")} Or raise --max-wait to wait here.`;
    return new QuotaSpentError(message, hint, Math.max(1, Math.ceil((resumeAt - context.now) / 1000)));
  }
  const { error } = stop;
  const why = error instanceof NetworkError ? "The server is unreachable, so the import stopped" : "The import stopped";
  const hint = [error instanceof NetworkError || error instanceof ApiError ? error.hint : undefined, `${why} with ${report.pending} records not sent. ${resume}`];
  const joined = hint.filter((line) => line !== undefined).join("\n");
  if (error instanceof NetworkError) return new NetworkError(error.message, joined, error.code);
  if (error instanceof ApiError) return new ApiError(error.body, joined, error.retryAfter, error.repeated);
  return error;
}

function printSkipped(skipped: readonly { line: number; error: string }[], stderr: OutStream): void {
  for (const record of skipped) stderr.write(`Skipped line ${record.line}: ${safeLine(record.error)}\n`);
}
