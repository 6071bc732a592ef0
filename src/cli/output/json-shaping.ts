// `--json id,name` and `--jq <expression>`: each command that prints records declares its fields
// with addJsonFields (as gh's commands call AddJSONFlags); the shaping itself is done here, once:
// the command prints its JSON as it always does, into a buffer, and the buffer is shaped when the
// command ends. Plain `--json` is left alone (and `pets list --all --json` keeps streaming);
// `--jq` needs the whole document, as jq itself does.
import type { Command } from "commander";
import type { TextSink } from "../context.js";
import { UsageError } from "../errors.js";
import { renderJson } from "./json.js";

/** What to do with the JSON a command printed. */
export interface Shaping {
  fields?: string[];
  jq?: string;
}

/** `"any"`: the command prints whatever the API answers (`petstore api`), so any field may be named. */
export type JsonFields = readonly string[] | "any";

const fieldsByCommand = new WeakMap<Command, JsonFields>();

/**
 * Gives a command that prints records `--jq` and the fields `--json id,name` may pick from them.
 * @example addJsonFields(new Command("list"), PET_FIELDS)
 */
export function addJsonFields<C extends Command>(command: C, fields: JsonFields): C {
  fieldsByCommand.set(command, fields);
  command.option("--jq <expression>", "filter the JSON through a jq expression (implies --json)");
  return command;
}

const FIELD_LIST = /^[A-Za-z_]\w*(,[A-Za-z_]\w*)*$/;

/**
 * `--json id,name` as `--json --json-fields id,name`: --json stays a plain switch, so
 * `petstore --json pets list` and `pets get --json 3` read as they always did. A word list is
 * taken as fields unless it names a subcommand of the command reached so far (`--json pets`).
 */
export function splitJsonFields(argv: readonly string[], program: Command): string[] {
  const out: string[] = [];
  let command: Command | undefined = program;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const next = argv[i + 1];
    if (arg === "--") return [...out, ...argv.slice(i)];
    if (!arg.startsWith("-")) command = command?.commands.find((sub) => sub.name() === arg || sub.aliases().includes(arg));
    if (arg.startsWith("--json=")) out.push("--json", "--json-fields", arg.slice("--json=".length));
    else if (arg === "--json" && next !== undefined && FIELD_LIST.test(next) && !isSubcommand(command, next)) {
      out.push("--json", "--json-fields", next);
      i++;
    } else out.push(arg);
  }
  return out;
}

function isSubcommand(command: Command | undefined, name: string): boolean {
  return command?.commands.some((sub) => sub.name() === name || sub.aliases().includes(name)) ?? false;
}

/**
 * Reads and checks the action command's --json fields and --jq before it runs (so a typo costs no
 * request), turns them into plain --json for the command, and returns the shaping to apply.
 */
export async function prepareShaping(command: Command, path: string): Promise<Shaping | undefined> {
  const opts = command.optsWithGlobals<{ jsonFields?: string; jq?: string }>();
  if (opts.jsonFields === undefined && opts.jq === undefined) return undefined;
  const valid = fieldsByCommand.get(command);
  if (valid === undefined) throw new UsageError(`\`${path}\` does not print records: --json takes no fields there`);
  const fields = opts.jsonFields === undefined ? undefined : parseFields(opts.jsonFields, path, valid);
  if (opts.jq !== undefined) await (await import("../internal/jq.js")).checkJq(opts.jq);
  command.setOptionValue("json", true);
  return { fields, jq: opts.jq };
}

function parseFields(value: string, path: string, valid: JsonFields): string[] {
  const fields = value.split(",").map((field) => field.trim()).filter(Boolean);
  if (valid === "any") return fields;
  const unknown = fields.filter((field) => !valid.includes(field));
  if (fields.length === 0 || unknown.length > 0) {
    const what = unknown.length > 0 ? `unknown field${unknown.length === 1 ? "" : "s"} ${unknown.join(", ")}` : "no fields";
    throw new UsageError(`--json: ${what}; the fields of \`${path}\` are: ${valid.join(", ")}`);
  }
  return fields;
}

/** A stdout that holds what is printed, to shape it once the command is done. */
export function bufferedSink(): TextSink & { text(): string } {
  const chunks: string[] = [];
  return { write: (chunk: string) => chunks.push(chunk), text: () => chunks.join("") };
}

/** The printed JSON, shaped: fields picked from each record, then the jq filter. */
export async function applyShaping(text: string, shaping: Shaping): Promise<string> {
  if (text.trim() === "") return text;
  // Without fields the printed text goes to jq as it is: parsing and printing it again would only cost.
  const value = shaping.fields === undefined ? undefined : pickFields(JSON.parse(text) as unknown, shaping.fields);
  if (shaping.jq === undefined) return value === undefined ? text : renderJson(value);
  const { runJq } = await import("../internal/jq.js");
  try {
    return await runJq(value === undefined ? text : JSON.stringify(value), shaping.jq);
  } catch (error) {
    throw new Error(`--jq: ${(error as Error).message}`);
  }
}

function pickFields(value: unknown, fields: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => pickFields(item, fields));
  if (value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(fields.filter((field) => field in record).map((field) => [field, record[field]]));
}

/** `pets list` for the pets list command: its names below the program. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(" ");
}

