// The end of `pets import`: invalid records with their lines, the summary on stderr, and with
// --json the whole report on stdout for a script to act on. A failure's text is often the
// server's Error message, and an invalid record's quotes the file: both printed as safe lines.
import { renderJson } from "./json.js";
import { escapeForTerminal, safeLine } from "./safe-text.js";
import type { OutStream } from "./stream.js";

export interface ImportReport {
  total: number;
  created: number;
  replayed: number;
  skipped: { line: number; error: string }[];
  failed: { line: number; error: string }[];
}

export function printInvalid(invalid: readonly { line: number; error: string }[], stderr: OutStream): void {
  const lines = invalid.map((record) => `  line ${record.line}: ${safeLine(record.error)}\n`).join("");
  stderr.write(`Error: ${invalid.length} invalid record${invalid.length === 1 ? "" : "s"}; nothing was sent (--skip-invalid sends the others):\n${lines}`);
}

export function printImportReport(report: ImportReport, out: { stderr: OutStream; stdout: OutStream; json: boolean }): void {
  if (report.skipped.length > 0 && !out.json) printSkipped(report.skipped, out.stderr);
  for (const failure of report.failed) out.stderr.write(`Failed line ${failure.line}: ${safeLine(failure.error)}\n`);
  out.stderr.write(
    `Imported ${report.total} record${report.total === 1 ? "" : "s"}: ${report.created} created, ${report.replayed} replayed, ` +
      `${report.skipped.length} skipped, ${report.failed.length} failed\n`,
  );
  // Whole in the JSON (a script may need the exact text), but never a raw control on stdout.
  if (out.json) out.stdout.write(escapeForTerminal(renderJson(report)));
}

function printSkipped(skipped: readonly { line: number; error: string }[], stderr: OutStream): void {
  for (const record of skipped) stderr.write(`Skipped line ${record.line}: ${safeLine(record.error)}\n`);
}
