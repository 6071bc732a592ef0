import { Command } from "commander";
import type { Order } from "../../../contract/values.js";
import { withClient, type CliContext } from "../../context.js";
import { idValue } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";
import { addJsonFields } from "../../output/json-shaping.js";
import { ORDER_FIELDS } from "../../output/record-fields.js";

export interface GetOrderOptions {
  settings: Settings;
  id: number;
}

export function getCommand(ctx: CliContext): Command {
  const command = new Command("get")
    .description("Print one order by id (beta)")
    .argument("<id>", "the order's id, a positive integer")
    .action(async (id: string, _flags: unknown, self: Command) => {
      const orderId = idValue("<id>", id);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      await runGet({ settings, id: orderId }, ctx);
    });
  takesGlobalOptions(command, API_GLOBALS);
  addJsonFields(command, ORDER_FIELDS);
  return withExamples(command, "petstore orders get 7", "petstore orders get 7 --json | jq .status");
}

export async function runGet(options: GetOrderOptions, ctx: CliContext): Promise<void> {
  const { printOrder } = await import("../../output/orders.js");
  const { stdoutOf } = await import("../../output/stream.js");
  const { betaNotice } = await import("../../output/beta-notice.js");
  const response = await withClient(ctx, options.settings, (api) => api.request<Order>("GET", `/store/orders/${options.id}`));
  printOrder(response.body, stdoutOf(ctx, options.settings), { json: options.settings.json });
  await betaNotice(ctx, options.settings, response.headers);
}
