import { Command } from "commander";
import type { Inventory } from "../../contract/values.js";
import { withClient, type CliContext } from "../context.js";
import { withExamples } from "../internal/help.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../internal/global-options.js";

export function inventoryCommand(ctx: CliContext): Command {
  const command = new Command("inventory")
    .description("How many pets are available, pending and sold (beta)")
    .action(async (_flags: unknown, self: Command) => {
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      await runInventory({ settings }, ctx);
    });
  takesGlobalOptions(command, API_GLOBALS);
  return withExamples(command, "petstore inventory", "petstore inventory --json | jq .available");
}

export async function runInventory(options: { settings: Settings }, ctx: CliContext): Promise<void> {
  const { printInventory } = await import("../output/orders.js");
  const { stdoutOf } = await import("../output/stream.js");
  const { betaNotice } = await import("../output/beta-notice.js");
  const response = await withClient(ctx, options.settings, (api) => api.request<Inventory>("GET", "/store/inventory"));
  printInventory(response.body, stdoutOf(ctx, options.settings), { json: options.settings.json });
  await betaNotice(ctx, options.settings, response.headers);
}
