import { Argument, Command } from "commander";
import type { CliContext } from "../context.js";
import { withExamples } from "../internal/help.js";
import { COMPLETE_COMMAND } from "../completion/tree.js";

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

/**
 * The values a completion script asks for at the moment of Tab: `__complete profiles` prints the
 * config file's profile names, one a line, from the file every other command reads (PETSTORE_CONFIG,
 * else the XDG path). Hidden: it is the scripts' helper, not a person's command. It never fails:
 * a missing or broken file completes to nothing, and no error reaches the command line.
 */
export function completeValuesCommand(ctx: CliContext): Command {
  return new Command(COMPLETE_COMMAND)
    .description("Print values for the completion scripts (profiles)")
    .argument("<what>", "profiles")
    .action(async (what: string) => {
      if (what === "profiles") ctx.io.stdout.write(lines(await profileNames(ctx)));
    });
}

/** The profile names of the config file, or none when it is missing or cannot be read. */
async function profileNames(ctx: Pick<CliContext, "config">): Promise<string[]> {
  try {
    return Object.keys((await ctx.config.read()).profiles ?? {});
  } catch {
    return [];
  }
}

function lines(values: string[]): string {
  return values.map((value) => `${value}\n`).join("");
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
