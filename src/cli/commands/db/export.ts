import { Command } from "commander";
import type { CliContext } from "../../context.js";
import { withExamples } from "../../internal/help.js";
import { SERVE_DEFAULTS } from "../../settings.js";

export interface ExportOptions {
  db: string;
}

export function exportCommand(ctx: CliContext): Command {
  const command = new Command("export")
    .description("Write a stopped store's data to stdout as NDJSON: a header, one line per pet, key (with its hash), order, webhook endpoint (with its signing secret) and delivery, an end line")
    .option("--db <file|url>", `database file or postgres:// URL (env PETSTORE_DB, default ${SERVE_DEFAULTS.db})`)
    .action(async (flags: { db?: string }) => {
      await runExport({ db: flags.db ?? ctx.env.PETSTORE_DB ?? SERVE_DEFAULTS.db }, ctx);
    });
  return withExamples(command, "petstore db export --db petstore.json > petstore.ndjson", "petstore db export --db postgres://petstore@db/petstore | gzip > export.ndjson.gz");
}

export async function runExport(options: ExportOptions, ctx: CliContext): Promise<void> {
  const { readStoreData } = await import("../../../store/transfer/store-data.js");
  const { exportLines } = await import("../../../store/transfer/export-format.js");
  const data = await readStoreData(options.db, { warn: (message) => ctx.io.stderr.write(`Warning: ${message}\n`) });
  for (const line of exportLines(data)) ctx.io.stdout.write(line);
}
