import { Help, type Command } from "commander";
import { globalFlagsTakenBy } from "../internal/global-options.js";

/** Values a shell finds at the moment of completion: file names, or the config file's profiles. */
export type DynamicValues = "files" | "profiles";

export interface OptionSpec {
  flags: string[];
  description: string;
  takesValue: boolean;
  choices: string[];
  /** The value is a comma-separated list of `choices` (`--scopes <scope,...>`): each item is completed. */
  list?: true;
  values?: DynamicValues;
}

/** What the hidden command prints for each kind of value the shell cannot know by itself. */
export const COMPLETE_COMMAND = "__complete";

// Options whose value is a profile of the config file, which changes after the script is generated.
const PROFILE_FLAGS = new Set(["--env"]);
// A value placeholder naming a file (`--db <file|url>`, `--config <file>`, `--cert <pem>`).
const FILE_PLACEHOLDER = /<(?:file|pem)[|>]/;
// A value placeholder naming a comma-separated list (`--scopes <scope,...>`).
const LIST_PLACEHOLDER = /,\.\.\.>/;

export interface CommandSpec {
  /** Names from the root: ["petstore", "pets", "list"]. */
  path: string[];
  description: string;
  options: OptionSpec[];
  subcommands: CommandSpec[];
  /** Values the first argument may take (`completion bash|zsh|fish`, `config set <key>`). */
  argChoices: string[];
  /** The root's options this command takes (`serve` takes no --api-key); all of them at the root. */
  globals: string[];
}

/** What the shells need to know about a commander program, read from the program itself. */
export function describeCommand(command: Command, parentPath: string[] = [], root: Command = command): CommandSpec {
  const path = [...parentPath, command.name()];
  const options: OptionSpec[] = command.options
    .filter((option) => !option.hidden)
    .map((option) => ({
      flags: [option.long, option.short].filter((flag): flag is string => Boolean(flag)),
      description: option.description,
      takesValue: option.required || option.optional,
      choices: option.argChoices ?? [],
      ...(LIST_PLACEHOLDER.test(option.flags) ? { list: true as const } : {}),
      values: valuesOf(option.long, option.flags),
    }));
  options.push({ flags: ["--help", "-h"], description: "display help for command", takesValue: false, choices: [] });
  return {
    path,
    description: command.description(),
    options,
    subcommands: visibleSubcommands(command).map((sub) => describeCommand(sub, path, root)),
    argChoices: command.registeredArguments[0]?.argChoices ?? [],
    globals: command === root ? options.flatMap((option) => option.flags) : globalFlagsTakenBy(command, root),
  };
}

/** Every command of the tree, root first. */
export function allCommands(spec: CommandSpec): CommandSpec[] {
  return [spec, ...spec.subcommands.flatMap(allCommands)];
}

/** The options valid at `spec`: its own and the root's that it takes (global options are accepted anywhere, used by some). */
export function optionsAt(spec: CommandSpec, root: CommandSpec): OptionSpec[] {
  if (spec === root) return spec.options;
  const own = new Set(spec.options.flatMap((option) => option.flags));
  const taken = (option: OptionSpec) => option.flags.some((flag) => spec.globals.includes(flag)) && !option.flags.some((flag) => own.has(flag));
  return [...spec.options, ...root.options.filter(taken)];
}

/** The options of the tree that take a value, and so hide the word after them from the command path. */
export function valueFlags(root: CommandSpec): string[] {
  return unique(allCommands(root).flatMap((spec) => optionsAt(spec, root)).filter((o) => o.takesValue).flatMap((o) => o.flags));
}

/** An option whose value the shell can offer, at one command of the tree. */
export interface CompletableOption {
  /** `"<command path> <flag>"` for each of its flags: what a script matches on. */
  keys: string[];
  option: OptionSpec;
}

/**
 * Every option of the tree whose value the shell can offer, at every command where it is valid:
 * two commands may give one flag different values (`pets list --status`, `orders list --status`).
 */
export function completableOptions(root: CommandSpec): CompletableOption[] {
  return allCommands(root).flatMap((spec) =>
    optionsAt(spec, root)
      .filter((option) => option.choices.length > 0 || option.values !== undefined)
      .map((option) => ({ keys: option.flags.map((flag) => `${spec.path.join(" ")} ${flag}`), option })),
  );
}

/** The options' keys grouped by the shell code that completes their values, so each code appears once. */
export function casesByBody(options: CompletableOption[], bodyOf: (option: OptionSpec) => string): [string[], string][] {
  const cases = new Map<string, string[]>();
  for (const { keys, option } of options) {
    const body = bodyOf(option);
    cases.set(body, [...(cases.get(body) ?? []), ...keys]);
  }
  return [...cases].map(([body, keys]) => [keys, body]);
}

export function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

function valuesOf(long: string | undefined, flags: string): DynamicValues | undefined {
  if (long !== undefined && PROFILE_FLAGS.has(long)) return "profiles";
  return FILE_PLACEHOLDER.test(flags) ? "files" : undefined;
}

/** Subcommands a person may type: hidden ones (the completion helper) are not offered. */
function visibleSubcommands(command: Command): Command[] {
  // Help.visibleCommands also adds the implicit `help` command, which is not in command.commands.
  const visible = new Set(new Help().visibleCommands(command));
  return command.commands.filter((sub) => visible.has(sub));
}
