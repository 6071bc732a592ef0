import type { Command } from "commander";

export interface OptionSpec {
  flags: string[];
  description: string;
  takesValue: boolean;
  choices: string[];
}

export interface CommandSpec {
  /** Names from the root: ["petstore", "pets", "list"]. */
  path: string[];
  description: string;
  options: OptionSpec[];
  subcommands: CommandSpec[];
  /** Values the first argument may take (`completion bash|zsh|fish`, `config set <key>`). */
  argChoices: string[];
}

/** What the shells need to know about a commander program, read from the program itself. */
export function describeCommand(command: Command, parentPath: string[] = []): CommandSpec {
  const path = [...parentPath, command.name()];
  const options: OptionSpec[] = command.options
    .filter((option) => !option.hidden)
    .map((option) => ({
      flags: [option.long, option.short].filter((flag): flag is string => Boolean(flag)),
      description: option.description,
      takesValue: option.required || option.optional,
      choices: option.argChoices ?? [],
    }));
  options.push({ flags: ["--help", "-h"], description: "display help for command", takesValue: false, choices: [] });
  return {
    path,
    description: command.description(),
    options,
    subcommands: command.commands.map((sub) => describeCommand(sub, path)),
    argChoices: command.registeredArguments[0]?.argChoices ?? [],
  };
}

/** Every command of the tree, root first. */
export function allCommands(spec: CommandSpec): CommandSpec[] {
  return [spec, ...spec.subcommands.flatMap(allCommands)];
}

/** The options valid at `spec`: its own and the root's (global options work anywhere). */
export function optionsAt(spec: CommandSpec, root: CommandSpec): OptionSpec[] {
  if (spec === root) return spec.options;
  const own = new Set(spec.options.flatMap((option) => option.flags));
  return [...spec.options, ...root.options.filter((option) => !option.flags.some((flag) => own.has(flag)))];
}

/**
 * The values each option takes, keyed by `"<command path> <flag>"`: two commands may give one
 * flag different choices (`pets list --status` and `orders list --status`). Keys with the same
 * choices are grouped, so a script has one case per set of values.
 */
export function choicesByPathAndFlag(root: CommandSpec): Array<{ keys: string[]; choices: string[] }> {
  const groups = new Map<string, { keys: string[]; choices: string[] }>();
  for (const spec of allCommands(root)) {
    for (const option of optionsAt(spec, root)) {
      if (option.choices.length === 0) continue;
      const id = option.choices.join(" ");
      const group = groups.get(id) ?? { keys: [], choices: option.choices };
      groups.set(id, group);
      for (const flag of option.flags) group.keys.push(`${spec.path.join(" ")} ${flag}`);
    }
  }
  return [...groups.values()];
}
