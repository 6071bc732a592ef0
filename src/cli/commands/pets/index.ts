import { Command } from "commander";
import type { CliContext } from "../../context.js";
import { addCommand } from "./add.js";
import { deleteCommand } from "./delete.js";
import { exportCommand } from "./export.js";
import { getCommand } from "./get.js";
import { importCommand } from "./import.js";
import { listCommand } from "./list.js";
import { updateCommand } from "./update.js";

export function petsCommand(ctx: CliContext): Command {
  return new Command("pets")
    .description("List, add, get, update and delete pets")
    .addCommand(listCommand(ctx))
    .addCommand(addCommand(ctx))
    .addCommand(getCommand(ctx))
    .addCommand(updateCommand(ctx))
    .addCommand(deleteCommand(ctx))
    .addCommand(importCommand(ctx))
    .addCommand(exportCommand(ctx));
}
