import { Command } from "commander";
import type { CliContext } from "../../context.js";
import { createCommand } from "./create.js";
import { listCommand } from "./list.js";
import { revokeCommand } from "./revoke.js";
import { rotateCommand } from "./rotate.js";

export function keysCommand(ctx: CliContext): Command {
  return new Command("keys")
    .description("Create, list, revoke and rotate API keys (needs an admin key)")
    .addCommand(createCommand(ctx))
    .addCommand(listCommand(ctx))
    .addCommand(revokeCommand(ctx))
    .addCommand(rotateCommand(ctx));
}
