import type { Command } from "commander";
import type { CliContext } from "../../context.js";
import { transitionCommand } from "./transition.js";

export const cancelCommand = (ctx: CliContext): Command =>
  transitionCommand(ctx, "cancel", "cancelled", "Cancel a placed or approved order (beta); its pet is available again");
