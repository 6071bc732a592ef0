import type { Command } from "commander";

/** Adds an "Examples:" block after a command's --help. */
export function withExamples(command: Command, ...lines: string[]): Command {
  return command.addHelpText("after", `\nExamples:\n${lines.map((line) => `  $ ${line}`).join("\n")}\n`);
}
