// The options given to `petstore` itself, which commander accepts before or after the command
// (`petstore --json pets list`, `petstore pets list --json`). Each command says which of them it
// uses, as gh's commands declare theirs; one it does not use is refused (exit 2) rather than
// silently ignored (`serve --api-key`), and `petstore --help` alone lists them.
import { Option, type Command } from "commander";
import { UsageError } from "../errors.js";
import { COLOR_MODES, DEFAULT_BASE_URL, DEFAULT_MAX_WAIT_S, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS } from "../settings.js";

/** The groups of global options a command may take; --color and --no-color go with every command. */
export type GlobalGroup = "connection" | "profile" | "json" | "pager";

/** What every command that calls the API takes. */
export const API_GLOBALS: readonly GlobalGroup[] = ["connection", "profile", "json"];

const CONNECTION_HEADING = "Connection options (the commands that call the API):";
const OUTPUT_HEADING = "Output options:";

// Each global option's group, by its attribute name (`--no-pager` sets `pager`).
const GROUP_OF: Readonly<Record<string, GlobalGroup | "any">> = {
  baseUrl: "connection",
  apiKey: "connection",
  timeout: "connection",
  retries: "connection",
  maxWait: "connection",
  caCert: "connection",
  verbose: "connection",
  env: "profile",
  json: "json",
  jsonFields: "json",
  pager: "pager",
  color: "any",
};

/** Adds the global options to the program, in two groups of its help. */
export function addGlobalOptions(program: Command): void {
  const option = (flags: string, description: string, heading: string) => new Option(flags, description).helpGroup(heading);
  const connection = (flags: string, description: string) => program.addOption(option(flags, description, CONNECTION_HEADING));
  const output = (flags: string, description: string) => program.addOption(option(flags, description, OUTPUT_HEADING));
  connection("--base-url <url>", `API base URL (default ${DEFAULT_BASE_URL})`);
  connection("--env <name>", "a profile of the config file: production, staging, ... (config commands too)");
  connection("--api-key <key>", "API key (better: `config set api-key -`)");
  connection("--timeout <ms>", `time limit per request (default ${DEFAULT_TIMEOUT_MS})`);
  connection("--retries <n>", `retries on 429, and (requests safe to repeat) on lost connections, timeouts and 502/503/504 (default ${DEFAULT_RETRIES})`);
  connection("--max-wait <seconds>", `most time to wait in all for Retry-After and backoff (default ${DEFAULT_MAX_WAIT_S})`);
  connection("--ca-cert <file>", "also trust the certificates in this PEM file, e.g. the one `serve --https` prints (env PETSTORE_CA_CERT)");
  connection("--verbose", "log requests, answers and remaining quota to stderr");
  output("--json", "JSON on stdout; errors as JSON on stderr; `--json id,name`: only those fields of each record");
  program.addOption(new Option("--json-fields <fields>", "the fields of `--json id,name`").hideHelp());
  program.addOption(option("--color <when>", "colour: auto (on a terminal, unless NO_COLOR or TERM=dumb), always, never", OUTPUT_HEADING).choices(COLOR_MODES));
  output("--no-color", "the same as --color never");
  output("--no-pager", "no pager for the lists on a terminal ($PETSTORE_PAGER, else $PAGER, else less -FRX)");
}

const takes = new WeakMap<Command, ReadonlySet<GlobalGroup>>();

/**
 * Declares the global options `command` uses; without a declaration it takes only --color.
 * @example takesGlobalOptions(new Command("list"), [...API_GLOBALS, "pager"])
 */
export function takesGlobalOptions<C extends Command>(command: C, groups: readonly GlobalGroup[]): C {
  takes.set(command, new Set(groups));
  return command;
}

/** The flags of the program's visible options that `command` takes: completion offers only those. */
export function globalFlagsTakenBy(command: Command, program: Command): string[] {
  return program.options.filter((option) => !option.hidden && accepts(command, option)).flatMap((option) => [option.long, option.short].filter((flag): flag is string => Boolean(flag)));
}

/** Throws a usage error when the command line gave a global option the command to run does not use. */
export function refuseUnusedGlobalOptions(program: Command, command: Command, argv: readonly string[]): void {
  for (const option of program.options) {
    if (program.getOptionValueSource(option.attributeName()) !== "cli" || accepts(command, option)) continue;
    const typed = typedFlag(program, option, argv);
    throw new UsageError(`\`${pathOf(command)}\` does not take ${typed}: ${purposeOf(option)}; see \`${pathOf(command)} --help\``);
  }
}

/** The line each command's help has instead of the global options themselves. */
export function globalOptionsLine(command: Command): string {
  const groups = takes.get(command) ?? new Set<GlobalGroup>();
  const named = [
    groups.has("connection") ? "connection" : undefined,
    groups.has("profile") && !groups.has("connection") ? "--env" : undefined,
    groups.has("json") ? "--json" : undefined,
    groups.has("pager") ? "--no-pager" : undefined,
    "--color",
  ].filter(Boolean);
  return `Global options (petstore --help): ${named.join(", ")}`;
}

function accepts(command: Command, option: Option): boolean {
  const group = GROUP_OF[option.attributeName()];
  if (group === undefined || group === "any") return true;
  return takes.get(command)?.has(group) ?? false;
}

/** How the command line spelled it: `--no-color` and `--color never` set the same value. */
function typedFlag(program: Command, option: Option, argv: readonly string[]): string {
  const siblings = program.options.filter((other) => other.attributeName() === option.attributeName());
  const flags = siblings.map((other) => other.long).filter((flag): flag is string => flag !== undefined);
  return flags.find((flag) => argv.some((arg) => arg === flag || arg.startsWith(`${flag}=`))) ?? option.long ?? option.flags;
}

function purposeOf(option: Option): string {
  switch (GROUP_OF[option.attributeName()]) {
    case "connection":
      return "it is for the commands that call the API";
    case "profile":
      return "it chooses the profile of the commands that call the API or edit the config file";
    case "pager":
      return "it is for the commands that print lists";
    default:
      return "it is for the commands that print data or call the API";
  }
}

function pathOf(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(" ");
}
