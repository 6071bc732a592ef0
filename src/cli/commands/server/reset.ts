import { Command } from "commander";
import { withClient, type CliContext } from "../../context.js";
import { withExamples } from "../../internal/help.js";
import { printOutcome, type Outcome } from "../../output/outcome.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";

export function resetCommand(ctx: CliContext): Command {
  const command = new Command("reset")
    .description("Restore a throwaway server (serve --ephemeral) to its seed: data, counters, bans, events (admin key needed)")
    .action(async (_flags: unknown, self: Command) => {
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      printOutcome(await runReset({ settings }, ctx), ctx, settings);
    });
  return withExamples(command, "petstore server reset", "PETSTORE_BASE_URL=http://127.0.0.1:4010/v1 petstore server reset   # between two tests");
}

/** POST /admin/reset; a server over a db answers 404 (exit 4). */
export async function runReset(options: { settings: Settings }, ctx: CliContext): Promise<Outcome> {
  await withClient(ctx, options.settings, (api) => api.request("POST", "/admin/reset"));
  return { kind: "changed", message: "Reset: the server holds its seed again." };
}
