// Errors, warnings and notices on stderr, with one look everywhere: the label coloured when the
// stream is (a terminal, colour on), the message plain.
import type { CliIO } from "../context.js";
import type { Env } from "../settings.js";
import { colorsFor } from "./colors.js";

export type Label = "Error" | "Warning" | "Notice";

/** `Error: <message>\n`, the label red (Warning yellow, Notice cyan) when `stream.color`. */
export function labelled(label: Label, message: string, stream: { color: boolean }): string {
  const chalk = colorsFor(stream);
  const paint = label === "Error" ? chalk.red.bold : label === "Warning" ? chalk.yellow : chalk.cyan;
  return `${paint(`${label}:`)} ${message}\n`;
}

/**
 * A warning raised before the flags are known (the config file being read): coloured when
 * stderr is a terminal and neither NO_COLOR nor TERM=dumb says otherwise.
 */
export function warnOn(io: Pick<CliIO, "stderr" | "isStderrTTY">, env: Env, message: string): void {
  const color = io.isStderrTTY && !env.NO_COLOR && env.TERM !== "dumb";
  io.stderr.write(labelled("Warning", message, { color }));
}
