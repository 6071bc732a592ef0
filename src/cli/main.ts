import { Command, CommanderError } from "commander";
import pkg from "../../package.json" with { type: "json" };
import type { CliContext } from "./context.js";
import { exitCodeFor, ExitCode } from "./errors.js";
import { reportError } from "./report-error.js";
import { registerServe } from "./commands/serve.js";

export { createProcessContext } from "./context.js";

/** Runs one command line and returns the exit code; only bin/petstore.js touches the process. */
export async function main(argv: readonly string[], ctx: CliContext): Promise<number> {
  let exitCode: number = ExitCode.ok;
  const setExitCode = (code: number) => {
    exitCode = code;
  };
  const program = buildProgram(ctx, setExitCode);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    reportError(error, ctx, { json: argv.includes("--json") });
    return exitCodeFor(error);
  }
}

function buildProgram(ctx: CliContext, setExitCode: (code: number) => void): Command {
  const program = new Command("petstore")
    .description("The animal-store API: run the server, or manage pets and keys against any base URL.")
    .version(pkg.version, "-V, --version")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => ctx.io.stdout.write(text),
      writeErr: (text) => ctx.io.stderr.write(text),
    });
  registerServe(program, ctx, setExitCode);
  for (const command of program.commands) command.exitOverride();
  return program;
}
