// A missing required flag, asked for on a terminal (as gh does) and refused without one.
import type { Choice, CliContext, Validate } from "../context.js";
import { ExitCode, SilentError, UsageError } from "../errors.js";

/** Both stdin and stderr are a terminal: someone is there to answer. */
export function canAsk(ctx: Pick<CliContext, "io">): boolean {
  return ctx.io.isStdinTTY && ctx.io.isStderrTTY;
}

export interface MissingFlag {
  /** As commander names it in its message: `--name <name>`, or `<value>` for an argument. */
  flag: string;
  question: string;
  validate?: Validate;
  /** A select instead of a line of text. */
  choices?: readonly Choice[];
  /** Masked as typed. */
  secret?: boolean;
}

/**
 * The value of a flag that was left out: asked for on a terminal; without one, the usage error
 * commander would have given (exit 2). Cancelling the question ends the command, exit 2.
 */
export async function askForMissing(ctx: Pick<CliContext, "io" | "prompt">, missing: MissingFlag): Promise<string> {
  if (!canAsk(ctx)) {
    const argument = /^<(.+)>$/.exec(missing.flag)?.[1];
    throw new UsageError(argument === undefined ? `required option '${missing.flag}' not specified` : `missing required argument '${argument}'`);
  }
  const { prompt } = ctx;
  const answer =
    missing.choices !== undefined
      ? await prompt.select(missing.question, missing.choices)
      : missing.secret === true
        ? await prompt.password(missing.question, missing.validate)
        : await prompt.text(missing.question, missing.validate);
  if (answer === undefined) {
    ctx.io.stderr.write("Cancelled; nothing was sent.\n");
    throw new SilentError(ExitCode.usage);
  }
  return answer;
}

/** A validator from a check that throws UsageError, for the prompt to show its message. */
export function validatorOf(check: (value: string) => unknown): Validate {
  return (value) => {
    try {
      check(value);
      return undefined;
    } catch (error) {
      if (error instanceof UsageError) return error.message;
      throw error;
    }
  };
}
