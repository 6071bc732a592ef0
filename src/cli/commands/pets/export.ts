import { Command, Option } from "commander";
import { PET_STATUSES, type PetStatus } from "../../../contract/values.js";
import { withClient, type CliContext } from "../../context.js";
import { idValue } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import type { PetFilters } from "../../internal/pet-pages.js";
import type { ExportFormat } from "../../output/pet-export.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";

interface ExportFlags {
  status?: PetStatus;
  category?: string;
  format: ExportFormat;
}

export interface ExportOptions {
  settings: Settings;
  filters: PetFilters;
  format: ExportFormat;
}

export function exportCommand(ctx: CliContext): Command {
  const command = new Command("export")
    .description("Write every pet (no ids: `pets import` reads it back), streaming page by page")
    .addOption(new Option("--status <status>", "only pets with this status").choices(PET_STATUSES))
    .option("--category <id>", "only pets of this category")
    .addOption(new Option("--format <format>", "ndjson, csv (name,categoryId,status) or json").choices(["ndjson", "csv", "json"]).default("ndjson"))
    .action(async (flags: ExportFlags, self: Command) => {
      const categoryId = flags.category === undefined ? undefined : idValue("--category", flags.category);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      await runExport({ settings, filters: { status: flags.status, categoryId }, format: flags.format }, ctx);
    });
  takesGlobalOptions(command, API_GLOBALS);
  return withExamples(
    command,
    "petstore pets export > pets.ndjson",
    "petstore pets export --format csv --status available > available.csv",
    "petstore pets export | petstore pets import - --env staging   # copies a store; ids are new there",
  );
}

export async function runExport(options: ExportOptions, ctx: CliContext): Promise<void> {
  const { petPages } = await import("../../internal/pet-pages.js");
  const { petWriter } = await import("../../output/pet-export.js");
  const writer = petWriter(options.format, ctx.io.stdout);
  await withClient(ctx, options.settings, async (api) => {
    for await (const page of petPages(api, options.filters)) writer.write(page);
  });
  writer.end();
}
