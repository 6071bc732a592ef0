import { Command } from "commander";
import type { CliContext } from "../../context.js";
import { approveCommand } from "./approve.js";
import { cancelCommand } from "./cancel.js";
import { deliverCommand } from "./deliver.js";
import { getCommand } from "./get.js";
import { listCommand } from "./list.js";
import { placeCommand } from "./place.js";

export function ordersCommand(ctx: CliContext): Command {
  return new Command("orders")
    .description("Place, list and move orders (beta): placed -> approved -> delivered, or cancelled")
    .addCommand(placeCommand(ctx))
    .addCommand(listCommand(ctx))
    .addCommand(getCommand(ctx))
    .addCommand(approveCommand(ctx))
    .addCommand(deliverCommand(ctx))
    .addCommand(cancelCommand(ctx));
}
