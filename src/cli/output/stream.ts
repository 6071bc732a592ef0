import type { CliContext, TextSink } from "../context.js";

/** A stream to print to, with what the printers need to know about it. */
export interface OutStream extends TextSink {
  isTTY: boolean;
  /** Colour is on: the stream is a TTY and neither --no-color nor NO_COLOR said otherwise. */
  color: boolean;
}

type OutputMode = "json" | "table" | "tsv";

/** JSON when asked; else a table for people (a TTY) and tab-separated lines for scripts. */
export function outputMode(json: boolean, stream: OutStream): OutputMode {
  if (json) return "json";
  return stream.isTTY ? "table" : "tsv";
}

export function stdoutOf(ctx: Pick<CliContext, "io">, settings: { color: boolean }): OutStream {
  return outStream(ctx.io.stdout, ctx.io.isStdoutTTY, settings.color);
}

export function stderrOf(ctx: Pick<CliContext, "io">, settings: { color: boolean }): OutStream {
  return outStream(ctx.io.stderr, ctx.io.isStderrTTY, settings.color);
}

function outStream(sink: TextSink, isTTY: boolean, colorAllowed: boolean): OutStream {
  return { write: (chunk) => sink.write(chunk), isTTY, color: isTTY && colorAllowed };
}
