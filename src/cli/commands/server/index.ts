import { Command } from "commander";
import type { CliContext } from "../../context.js";
import { chaosCommand } from "./chaos.js";
import { resetCommand } from "./reset.js";

export function serverCommand(ctx: CliContext): Command {
  return new Command("server").description("Drive a throwaway server (serve --ephemeral) from a test suite: reset it to its seed, change its faults")
    .addCommand(resetCommand(ctx))
    .addCommand(chaosCommand(ctx));
}
