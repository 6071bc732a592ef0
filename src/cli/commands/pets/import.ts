import { Command, Option } from "commander";
import { withClient, type CliContext } from "../../context.js";
import { SilentError } from "../../errors.js";
import { integerFlag } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import { IMPORT_FORMATS, type ImportFormat } from "../../internal/import/formats.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";

interface ImportFlags {
  format?: ImportFormat;
  skipInvalid?: boolean;
  concurrency?: string;
}

export interface ImportOptions {
  settings: Settings;
  /** A path, or "-" for stdin. */
  source: string;
  format: ImportFormat | undefined;
  skipInvalid: boolean;
  concurrency: number;
}

export const DEFAULT_IMPORT_CONCURRENCY = 8;

export function importCommand(ctx: CliContext): Command {
  const command = new Command("import")
    .description("Create pets from a file (NDJSON, JSON array, or CSV name,categoryId,status), paced by the key's quota; safe to re-run")
    .argument("<file>", 'the file, or "-" for stdin')
    .addOption(new Option("--format <format>", "the file's format (default: from its extension; stdin: ndjson)").choices(IMPORT_FORMATS))
    .option("--skip-invalid", "send the valid records even when some are invalid (they are reported and skipped)")
    .option("--concurrency <n>", `most requests in flight (default ${DEFAULT_IMPORT_CONCURRENCY}); fewer while the quota is short`)
    .action(async (source: string, flags: ImportFlags, self: Command) => {
      const concurrency = integerFlag("--concurrency", flags.concurrency, DEFAULT_IMPORT_CONCURRENCY, 1, 64);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      await runImport({ settings, source, format: flags.format, skipInvalid: flags.skipInvalid === true, concurrency }, ctx);
    });
  takesGlobalOptions(command, API_GLOBALS);
  return withExamples(
    command,
    "petstore pets import pets.ndjson",
    "petstore pets import pets.csv --skip-invalid",
    "petstore pets export --format ndjson | petstore pets import - --base-url https://other/v1",
    "petstore pets import pets.json --json > report.json   # failed lines with their errors",
  );
}

export async function runImport(options: ImportOptions, ctx: CliContext): Promise<void> {
  const { loadImport } = await import("../../internal/import/load-import.js");
  const { sendRecords } = await import("../../internal/import/send-records.js");
  const { journalId } = await import("../../internal/import/import-journal.js");
  const { createImportProgress } = await import("../../output/import-progress.js");
  const { printImportReport, printInvalid, stopError } = await import("../../output/import-report.js");
  const { stderrOf, stdoutOf } = await import("../../output/stream.js");
  const loaded = await loadImport(options.source, options.format, ctx);
  if (loaded.invalid.length > 0 && !options.skipInvalid) {
    printInvalid(loaded.invalid, stderrOf(ctx, options.settings));
    throw new SilentError(2);
  }
  const stderr = stderrOf(ctx, options.settings);
  const progress = createImportProgress(stderr, loaded.valid.length, ctx.now);
  const result = await withClient(ctx, options.settings, (api) =>
    sendRecords(api, loaded.valid, {
      concurrency: options.concurrency,
      fileHash: loaded.hash,
      journal: ctx.state.importJournal(journalId(loaded.hash, options.settings.baseUrl)),
      maxWaitMs: options.settings.maxWaitMs,
      now: ctx.now,
      sleep: ctx.sleep,
      onWait: (ms, reason) => progress.waiting(ms, reason),
      onSettled: (done) => progress.advance(done),
    }),
  ).finally(() => progress.done());
  const { created, replayed, earlier, pending, failed, stopped } = result;
  const report = { total: loaded.valid.length + loaded.invalid.length, created, replayed, earlier, pending, skipped: loaded.invalid, failed };
  printImportReport(report, { stderr, stdout: stdoutOf(ctx, options.settings), json: options.settings.json, stopped: stopped !== undefined });
  if (stopped !== undefined) throw stopError(stopped, report, { maxWaitMs: options.settings.maxWaitMs, now: ctx.now(), timeZone: ctx.timeZone });
  if (report.failed.length > 0 || report.skipped.length > 0) throw new SilentError(1);
}
