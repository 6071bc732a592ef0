import { Command } from "commander";
import type { CliContext } from "../../context.js";
import { createCommand } from "./create.js";
import { listCommand } from "./list.js";
import { revokeCommand } from "./revoke.js";

export function keysCommand(ctx: CliContext): Command {
  return new Command("keys")
    .description("Create, list and revoke API keys (needs an admin key)")
    .addCommand(createCommand(ctx))
    .addCommand(listCommand(ctx))
    .addCommand(revokeCommand(ctx));
}
