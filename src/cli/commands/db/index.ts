import { Command } from "commander";
import type { CliContext } from "../../context.js";
import { backupCommand } from "./backup.js";
import { exportCommand } from "./export.js";
import { importCommand } from "./import.js";
import { migrateCommand } from "./migrate.js";
import { restoreCommand } from "./restore.js";

export function dbCommand(ctx: CliContext): Command {
  return new Command("db")
    .description("Back up a running server's store; restore, export, import and migrate a stopped one's")
    .addCommand(backupCommand(ctx))
    .addCommand(exportCommand(ctx))
    .addCommand(importCommand(ctx))
    .addCommand(migrateCommand(ctx))
    .addCommand(restoreCommand(ctx));
}
