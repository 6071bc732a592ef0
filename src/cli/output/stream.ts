import type { CliContext, TextSink } from "../context.js";
import type { ColorMode } from "../settings.js";

/** A stream to print to, with what the printers need to know about it. */
export interface OutStream extends TextSink {
  isTTY: boolean;
  /** Colour is on: --color always, or a TTY under --color auto without NO_COLOR or TERM=dumb. */
  color: boolean;
  /** The terminal's width, for tables and progress lines; undefined when not a terminal (or unknown). */
  columns?: number;
}

type OutputMode = "json" | "table" | "tsv";

/** JSON when asked; else a table for people (a TTY) and tab-separated lines for scripts. */
export function outputMode(json: boolean, stream: OutStream): OutputMode {
  if (json) return "json";
  return stream.isTTY ? "table" : "tsv";
}

export function stdoutOf(ctx: Pick<CliContext, "io">, settings: { color: ColorMode }): OutStream {
  return { ...outStream(ctx.io.stdout, ctx.io.isStdoutTTY, settings.color), columns: ctx.io.columns };
}

export function stderrOf(ctx: Pick<CliContext, "io">, settings: { color: ColorMode }): OutStream {
  return { ...outStream(ctx.io.stderr, ctx.io.isStderrTTY, settings.color), columns: ctx.io.stderrColumns };
}

function outStream(sink: TextSink, isTTY: boolean, mode: ColorMode): OutStream {
  return { write: (chunk) => sink.write(chunk), isTTY, color: mode === "always" || (mode === "auto" && isTTY) };
}
