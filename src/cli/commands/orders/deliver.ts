import type { Command } from "commander";
import type { CliContext } from "../../context.js";
import { transitionCommand } from "./transition.js";

export const deliverCommand = (ctx: CliContext): Command =>
  transitionCommand(ctx, "deliver", "delivered", "Deliver an approved order (beta); its pet becomes sold");
