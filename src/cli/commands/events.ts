import { Command } from "commander";
import { EVENT_TYPES, isEventType } from "../../contract/events.js";
import { withClient, type CliContext } from "../context.js";
import { UsageError } from "../errors.js";
import { integerFlag } from "../internal/flags.js";
import { withExamples } from "../internal/help.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../settings.js";

export interface EventsOptions {
  settings: Settings;
  types: string[] | undefined;
  since: number | undefined;
}

export function eventsCommand(ctx: CliContext): Command {
  const command = new Command("events")
    .description("Follow every change of pets and orders as it happens, until interrupted (Ctrl-C)")
    .option("--types <types>", `only these event types, comma-separated: ${EVENT_TYPES.join(", ")}`)
    .option("--since <event id>", "start after this event id (replaying what the server still holds), not from now")
    .action(async (flags: { types?: string; since?: string }, self: Command) => {
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      await runEvents({ settings, types: parseTypes(flags.types), since: integerFlag("--since", flags.since, undefined, 0, Number.MAX_SAFE_INTEGER) }, ctx);
    });
  return withExamples(
    command,
    "petstore events",
    "petstore events --types pet.updated,order.created",
    "petstore events --since 1200 | jq -c 'select(.type == \"pet.deleted\")'",
  );
}

/** Prints each event (a line on a terminal, NDJSON piped); reconnects by itself; returns on Ctrl-C. */
export async function runEvents(options: EventsOptions, ctx: CliContext): Promise<void> {
  const [{ followEvents }, { printEvent }, { stdoutOf, stderrOf }, { safeLine }] = await Promise.all([
    import("../internal/follow-events.js"),
    import("../output/events.js"),
    import("../output/stream.js"),
    import("../output/safe-text.js"),
  ]);
  const stdout = stdoutOf(ctx, options.settings);
  const stderr = stderrOf(ctx, options.settings);
  const signal = ctx.interrupt?.() ?? new AbortController().signal;
  await withClient(ctx, options.settings, (api) =>
    followEvents(
      api,
      { types: options.types, since: options.since, signal },
      {
        onEvent: (event) => printEvent(event, stdout, ctx.timeZone),
        onReset: (lastId) => {
          stderr.write(`The server no longer holds the events after ${lastId ?? "that id"}: some were missed. List again (petstore pets list), then read on.\n`);
          if (!stdout.isTTY) stdout.write(`${JSON.stringify({ type: "reset", lastEventId: lastId ?? null })}\n`);
        },
        onReconnect: (reason, delayMs, lastId) => {
          const from = lastId === undefined ? "" : ` after event ${lastId}`;
          // The reason can be a server's Error message: printed like one (safe-text.ts).
          stderr.write(`Connection lost (${safeLine(reason)}); reconnecting in ${(delayMs / 1000).toFixed(1)} s${from}\n`);
        },
        sleep: ctx.sleep,
        random: ctx.random,
      },
    ),
  );
}

function parseTypes(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const types = raw.split(",").map((type) => type.trim());
  const unknown = types.find((type) => !isEventType(type));
  if (unknown !== undefined) throw new UsageError(`--types: unknown event type "${unknown}" (known: ${EVENT_TYPES.join(", ")})`);
  return types;
}
