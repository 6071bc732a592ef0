import { Command } from "commander";
import type { CliContext } from "../../context.js";
import { addCommand } from "./add.js";

export function webhooksCommand(ctx: CliContext): Command {
  return new Command("webhooks")
    .description("Add, list, change, test and remove webhook endpoints, and see their deliveries (needs an admin key)")
    .addCommand(addCommand(ctx));
}
