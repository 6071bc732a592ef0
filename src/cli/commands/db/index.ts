import { Command } from "commander";
import type { CliContext } from "../../context.js";
import { exportCommand } from "./export.js";
import { importCommand } from "./import.js";
import { migrateCommand } from "./migrate.js";

export function dbCommand(ctx: CliContext): Command {
  return new Command("db")
    .description("Export, import and migrate a store's data (its server stopped)")
    .addCommand(exportCommand(ctx))
    .addCommand(importCommand(ctx))
    .addCommand(migrateCommand(ctx));
}
