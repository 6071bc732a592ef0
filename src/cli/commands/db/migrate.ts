import { Command } from "commander";
import type { CliContext } from "../../context.js";
import { withExamples } from "../../internal/help.js";

export interface MigrateOptions {
  from: string;
  to: string;
}

export function migrateCommand(ctx: CliContext): Command {
  const command = new Command("migrate")
    .description("Copy a stopped store into a new or empty one (export, then import, then compare): file to PostgreSQL or back")
    .requiredOption("--from <file|url>", "the store to copy (its server stopped)")
    .requiredOption("--to <file|url>", "the new or empty store")
    .action(async (flags: MigrateOptions) => {
      await runMigrate(flags, ctx);
    });
  return withExamples(command, "petstore db migrate --from petstore.json --to postgres://petstore@db/petstore");
}

/** Goes through the export format itself, so a migration is exactly an export piped into an import. */
export async function runMigrate(options: MigrateOptions, ctx: CliContext): Promise<void> {
  const { readStoreData } = await import("../../../store/transfer/store-data.js");
  const { exportLines, parseExport, countsOf, describeCounts } = await import("../../../store/transfer/export-format.js");
  const { importVerified } = await import("../../../store/transfer/import-verified.js");
  const warn = (message: string) => ctx.io.stderr.write(`Warning: ${message}\n`);
  const data = parseExport([...exportLines(await readStoreData(options.from, { warn }))].join(""));
  const counts = await importVerified(options.to, data, { warn });
  const expected = countsOf(data);
  const held = [counts.pets, counts.keys, counts.orders, ...(counts.webhooks + counts.deliveries > 0 ? [counts.webhooks, counts.deliveries] : [])];
  ctx.io.stderr.write(`Migrated ${describeCounts(expected)}; the target holds ${held.join(", ")}.\n`);
}
