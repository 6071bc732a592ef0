import { Command } from "commander";
import { EVENT_TYPES, isEventType, type StoreEvent } from "../../contract/events.js";
import { withClient, type CliContext } from "../context.js";
import { UsageError } from "../errors.js";
import { integerFlag } from "../internal/flags.js";
import type { FollowHooks } from "../internal/follow-events.js";
import type { EventConsumer, ForwardFlags } from "../internal/forward-events.js";
import { withExamples } from "../internal/help.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../internal/global-options.js";

export interface EventsOptions {
  settings: Settings;
  types: string[] | undefined;
  since: number | undefined;
  /** Each event POSTed, signed, to this receiver instead of printed. */
  forward?: ForwardFlags;
}

export function eventsCommand(ctx: CliContext): Command {
  const command = new Command("events")
    .description("Follow every change of pets and orders as it happens, until interrupted (Ctrl-C)")
    .option("--types <types>", `only these event types, comma-separated: ${EVENT_TYPES.join(", ")}`)
    .option("--since <event id>", "start after this event id (replaying what the server still holds), not from now")
    .option("--forward-to <url>", "POST each event to this URL (a local receiver), signed as Standard Webhooks, instead of printing it")
    .option("--secret <secret>", "the whsec_ signing secret for --forward-to (default: a new one, printed at start); - reads it from stdin")
    .action(async (flags: { types?: string; since?: string; forwardTo?: string; secret?: string }, self: Command) => {
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      if (flags.secret !== undefined && flags.forwardTo === undefined) throw new UsageError("--secret signs what --forward-to sends: give --forward-to too");
      const since = integerFlag("--since", flags.since, undefined, 0, Number.MAX_SAFE_INTEGER);
      const forward = flags.forwardTo === undefined ? undefined : { url: flags.forwardTo, secret: flags.secret };
      await runEvents({ settings, types: parseTypes(flags.types), since, forward }, ctx);
    });
  takesGlobalOptions(command, API_GLOBALS);
  return withExamples(
    command,
    "petstore events",
    "petstore events --types pet.updated,order.created",
    "petstore events --since 1200 | jq -c 'select(.type == \"pet.deleted\")'",
    "petstore events --forward-to localhost:8080/hook --types pet.created",
  );
}

/**
 * Prints each event (a line on a terminal, NDJSON piped), or forwards it to a receiver;
 * reconnects by itself; returns on Ctrl-C.
 */
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
  const consumer: EventConsumer = options.forward
    ? await (await import("../internal/forward-events.js")).startForwarding(options.forward, { ctx, timeoutMs: options.settings.timeoutMs, stdout, stderr, signal })
    : { onEvent: (event: StoreEvent) => printEvent(event, stdout, ctx.timeZone), stop: async () => {} };
  const hooks: FollowHooks = {
    onEvent: consumer.onEvent,
    onReset: (lastId) => {
      stderr.write(`The server no longer holds the events after ${lastId ?? "that id"}: some were missed. List again (petstore pets list), then read on.\n`);
      // Piped, the NDJSON says so too; forwarding, stdout holds delivery records only.
      if (!stdout.isTTY && !options.forward) stdout.write(`${JSON.stringify({ type: "reset", lastEventId: lastId ?? null })}\n`);
    },
    onReconnect: (reason, delayMs, lastId) => {
      const from = lastId === undefined ? "" : ` after event ${lastId}`;
      // The reason can be a server's Error message: printed like one (safe-text.ts).
      stderr.write(`Connection lost (${safeLine(reason)}); reconnecting in ${(delayMs / 1000).toFixed(1)} s${from}\n`);
    },
    sleep: ctx.sleep,
    random: ctx.random,
  };
  try {
    await withClient(ctx, options.settings, (api) => followEvents(api, { types: options.types, since: options.since, signal }, hooks));
  } finally {
    await consumer.stop();
  }
}

function parseTypes(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const types = raw.split(",").map((type) => type.trim());
  const unknown = types.find((type) => !isEventType(type));
  if (unknown !== undefined) throw new UsageError(`--types: unknown event type "${unknown}" (known: ${EVENT_TYPES.join(", ")})`);
  return types;
}
