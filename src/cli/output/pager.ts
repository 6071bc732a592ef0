// Long output for a person goes through a pager, as in gh and git; never when stdout is piped.
import type { CliContext } from "../context.js";
import { stdoutOf, type OutStream } from "./stream.js";

/**
 * Runs `print` with stdout, or with the pager's input when stdout is a terminal and a pager is
 * set; waits for the pager to end (the person quits it) before returning.
 */
export async function printPaged(
  ctx: Pick<CliContext, "io" | "pager">,
  settings: { color: Parameters<typeof stdoutOf>[1]["color"]; pager: string | undefined },
  print: (stream: OutStream) => void,
): Promise<void> {
  const stdout = stdoutOf(ctx, settings);
  if (!stdout.isTTY || settings.pager === undefined) {
    print(stdout);
    return;
  }
  const pager = ctx.pager(settings.pager);
  try {
    print({ ...stdout, write: (chunk) => pager.write(chunk) });
  } finally {
    await pager.close();
  }
}
