// What a command says after its data, decided by the command and printed here, in one place.
import type { CliContext } from "../context.js";
import type { ColorMode } from "../settings.js";
import { labelled } from "./notice.js";
import { stderrOf } from "./stream.js";

/**
 * How a command ended, beyond its data and its exit code:
 * - `no-results` speaks to a person reading the data (stdout a terminal, no --json): piped, an
 *   empty output is the answer itself;
 * - `partial` (more records exist than were printed) is said on stderr always, terminal or not,
 *   --json or not: a script that meant every record must learn it got only some;
 * - `changed` confirms a change (a revoked key, a value set) when stderr is a terminal; a script
 *   has exit code 0 for that;
 * - `notice` is a change the command is not sure how it came about (a retried DELETE that found
 *   the pet gone): said on stderr always, as a Notice, since a log should keep it.
 */
export type Outcome =
  | { kind: "done" }
  | { kind: "no-results"; message: string }
  | { kind: "partial"; message: string }
  | { kind: "changed"; message: string }
  | { kind: "notice"; message: string };

export function printOutcome(outcome: Outcome, ctx: Pick<CliContext, "io">, options: { json: boolean; color?: ColorMode }): void {
  switch (outcome.kind) {
    case "done":
      return;
    case "no-results":
      if (ctx.io.isStdoutTTY && !options.json) ctx.io.stderr.write(`${outcome.message}\n`);
      return;
    case "partial":
      ctx.io.stderr.write(`${outcome.message}\n`);
      return;
    case "changed":
      if (ctx.io.isStderrTTY) ctx.io.stderr.write(`${outcome.message}\n`);
      return;
    case "notice":
      ctx.io.stderr.write(labelled("Notice", outcome.message, stderrOf(ctx, { color: options.color ?? "auto" })));
      return;
  }
}
