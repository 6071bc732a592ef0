import { Command, CommanderError, Help } from "commander";
import { VERSION } from "../support/package-info.js";
import type { CliContext } from "./context.js";
import { exitCodeFor, ExitCode } from "./errors.js";
import { reportError } from "./report-error.js";
import { programHelp } from "./help-text.js";
import { resolveColorMode, type GlobalFlags } from "./settings.js";
import { addTopCommands } from "./commands/top-level.js";
import { addGlobalOptions, globalOptionsLine, refuseUnusedGlobalOptions } from "./internal/global-options.js";
import { applyShaping, bufferedSink, prepareShaping, splitJsonFields, commandPath, type Shaping } from "./output/json-shaping.js";
import { fitText, fittingSink } from "./output/fit-lines.js";
import { loadDisplayWidth } from "./output/text-width.js";

export { createProcessContext } from "./process-context.js";

/** Runs one command line and returns the exit code; only bin/petstore.js touches the process. */
export async function main(argv: readonly string[], ctx: CliContext): Promise<number> {
  let exitCode: number = ExitCode.ok;
  const setExitCode = (code: number) => {
    exitCode = code;
  };
  // --json fields and --jq shape what a command printed: its stdout is held until it is done.
  const held = bufferedSink();
  let shaping: Shaping | undefined;
  const stdout = { write: (chunk: string) => (shaping === undefined ? ctx.io.stdout.write(chunk) : held.write(chunk)) };
  // What a person reads on a terminal fits its width, measured as the terminal shows it.
  if (ctx.io.isStdoutTTY || ctx.io.isStderrTTY) await loadDisplayWidth();
  const stderr = ctx.io.isStderrTTY && ctx.io.stderrColumns !== undefined ? fittingSink(ctx.io.stderr, ctx.io.stderrColumns) : ctx.io.stderr;
  ctx = { ...ctx, io: { ...ctx.io, stderr } };
  const program = createProgram({ ...ctx, io: { ...ctx.io, stdout } }, setExitCode, argv);
  program.hook("preAction", async (_root, action) => {
    refuseUnusedGlobalOptions(program, action, argv);
    shaping = await prepareShaping(action, commandPath(action));
    // The pager would receive the JSON before it is shaped; shaped output is short anyway.
    if (shaping !== undefined) program.setOptionValue("pager", false);
  });
  // A bare `petstore` is a request for help, as in gh: on stdout, exit 0.
  if (argv.length === 0) {
    program.outputHelp();
    return ExitCode.ok;
  }
  try {
    await program.parseAsync(splitJsonFields(argv, program), { from: "user" });
    if (shaping !== undefined) ctx.io.stdout.write(await applyShaping(held.text(), shaping));
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    const flags = program.opts<GlobalFlags>();
    reportError(error, ctx, { json: flags.json === true || argv.includes("--json"), color: colorModeOf(flags, argv, ctx) });
    return exitCodeFor(error);
  }
}

/**
 * The program for this argv: every top-level command named in it built, the others listed (and
 * all of them built for `completion`, or for a test that walks the tree: argv ["completion"]).
 */
export function createProgram(ctx: CliContext, setExitCode: (code: number) => void, argv: readonly string[]): Command {
  const helpWidth = (ctx.io.isStdoutTTY ? ctx.io.columns : undefined) ?? 80;
  const program = new Command("petstore")
    .description("The animal-store API: run the server, or manage pets and keys against any base URL.")
    .version(VERSION, "-V, --version")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    // commander wraps a description only where 40 columns are left for it; 20 keeps 60 aligned.
    .configureHelp({ formatHelp: withGlobalOptionsLine, minWidthToWrap: 20 })
    .configureOutput({
      // Help (and its examples, which commander leaves as written) fits the terminal, or 80 columns.
      writeOut: (text) => ctx.io.stdout.write(fitText(text, helpWidth)),
      writeErr: (text) => ctx.io.stderr.write(text),
      // commander's own checks read process.stdout and process.stderr, which costs node:net on a
      // pipe; the context knows. Help has no colour of ours: these only say when commander strips it.
      getOutHelpWidth: () => helpWidth,
      getErrHelpWidth: () => (ctx.io.isStderrTTY ? ctx.io.stderrColumns : undefined) ?? 80,
      getOutHasColors: () => ctx.io.isStdoutTTY,
      getErrHasColors: () => ctx.io.isStderrTTY,
      // One look for every usage error, ours and commander's: "Error: ...".
      outputError: (text, write) => write(text.replace(/^error: /, "Error: ")),
    });
  addGlobalOptions(program);
  program.addHelpText("after", () => programHelp(helpWidth));
  // Only the command argv names is built; the others are listed from a table (commands/top-level.ts).
  addTopCommands(program, ctx, setExitCode, argv);
  inheritSettings(program);
  return program;
}

/** The colour of an error: from the flags when they were parsed, else from what argv says. */
function colorModeOf(flags: GlobalFlags, argv: readonly string[], ctx: CliContext) {
  const typed = argv.includes("--no-color") ? false : flags.color;
  return resolveColorMode({ color: typed }, ctx.env);
}

/** The built-in help, and below a command's own options the one line that points at the global ones. */
function withGlobalOptionsLine(this: Help, command: Command, helper: Help): string {
  const text = Help.prototype.formatHelp.call(this, command, helper);
  if (command.parent === null || command.commands.length > 0) return text;
  return `${text}\n${globalOptionsLine(command)}\n`;
}

/** Commands built with `new Command` do not inherit the root's output and exit handling: copy it down. */
function inheritSettings(parent: Command): void {
  for (const command of parent.commands) {
    command.copyInheritedSettings(parent);
    inheritSettings(command);
  }
}
