import type { Command } from "commander";
import type { CliContext } from "../../context.js";
import { transitionCommand } from "./transition.js";

export const approveCommand = (ctx: CliContext): Command =>
  transitionCommand(ctx, "approve", "approved", "Approve a placed order (beta); its pet stays pending");
