import { Argument, Command } from "commander";
import type { CliContext } from "../context.js";
import { withExamples } from "../internal/help.js";

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

export interface CompletionOptions {
  shell: Shell;
  /** The root of the command tree the script completes. */
  program: Command;
}

export function completionCommand(ctx: CliContext): Command {
  const command = new Command("completion")
    .description("Print a shell completion script generated from the command tree")
    .addArgument(new Argument("<shell>", "the shell").choices(SHELLS))
    .action(async (shell: Shell, _flags: unknown, self: Command) => {
      await runCompletion({ shell, program: rootOf(self) }, ctx);
    });
  return withExamples(
    command,
    'echo \'source <(petstore completion bash)\' >> ~/.bashrc',
    'echo \'source <(petstore completion zsh)\' >> ~/.zshrc      # after compinit',
    "petstore completion fish > ~/.config/fish/completions/petstore.fish",
  );
}

export async function runCompletion(options: CompletionOptions, ctx: CliContext): Promise<void> {
  const { describeCommand } = await import("../completion/tree.js");
  const spec = describeCommand(options.program);
  const script = await scriptFor(options.shell);
  ctx.io.stdout.write(script(spec));
}

async function scriptFor(shell: Shell) {
  switch (shell) {
    case "bash":
      return (await import("../completion/bash.js")).bashCompletion;
    case "zsh":
      return (await import("../completion/zsh.js")).zshCompletion;
    case "fish":
      return (await import("../completion/fish.js")).fishCompletion;
  }
}

function rootOf(command: Command): Command {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}
