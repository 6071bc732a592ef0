import { Command } from "commander";
import type { CliContext } from "../../context.js";
import { addCommand } from "./add.js";
import { deliveriesCommand } from "./deliveries.js";
import { getCommand } from "./get.js";
import { listCommand } from "./list.js";
import { removeCommand } from "./remove.js";
import { retryCommand } from "./retry.js";
import { rotateSecretCommand } from "./rotate-secret.js";
import { testCommand } from "./test.js";
import { updateCommand } from "./update.js";

export function webhooksCommand(ctx: CliContext): Command {
  return new Command("webhooks")
    .description("Add, list, change, test and remove webhook endpoints, and see their deliveries (needs an admin key)")
    .addCommand(addCommand(ctx))
    .addCommand(listCommand(ctx))
    .addCommand(getCommand(ctx))
    .addCommand(updateCommand(ctx))
    .addCommand(removeCommand(ctx))
    .addCommand(rotateSecretCommand(ctx))
    .addCommand(testCommand(ctx))
    .addCommand(deliveriesCommand(ctx))
    .addCommand(retryCommand(ctx));
}
