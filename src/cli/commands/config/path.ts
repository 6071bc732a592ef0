import { Command } from "commander";
import type { CliContext } from "../../context.js";
import { withExamples } from "../../internal/help.js";

export function pathCommand(ctx: CliContext): Command {
  const command = new Command("path")
    .description("Print where the config file is (it may not exist yet)")
    .action(() => runPath(ctx));
  return withExamples(command, "petstore config path", '"$EDITOR" "$(petstore config path)"');
}

/** The path alone on stdout, so `$(petstore config path)` is the file. */
export function runPath(ctx: Pick<CliContext, "io" | "config">): void {
  ctx.io.stdout.write(`${ctx.config.path}\n`);
}
