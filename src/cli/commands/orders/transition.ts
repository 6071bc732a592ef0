// approve, deliver and cancel are one PATCH each, differing only in the status they ask for.
import { Command } from "commander";
import type { Order, OrderStatus } from "../../../contract/values.js";
import { withClient, type CliContext } from "../../context.js";
import { idValue } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import { printOutcome, type Outcome } from "../../output/outcome.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";
import { addJsonFields } from "../../output/json-shaping.js";
import { ORDER_FIELDS } from "../../output/record-fields.js";

export interface TransitionOptions {
  settings: Settings;
  id: number;
  to: OrderStatus;
}

/** The verb's command: `<verb> <id>`, moving the order to `to`. */
export function transitionCommand(ctx: CliContext, verb: string, to: OrderStatus, description: string): Command {
  const command = new Command(verb)
    .description(description)
    .argument("<id>", "the order's id, a positive integer")
    .action(async (id: string, _flags: unknown, self: Command) => {
      const orderId = idValue("<id>", id);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      printOutcome(await runTransition({ settings, id: orderId, to }, ctx), ctx, settings);
    });
  takesGlobalOptions(command, API_GLOBALS);
  addJsonFields(command, ORDER_FIELDS);
  return withExamples(command, `petstore orders ${verb} 7`, `petstore orders ${verb} 7 --json`);
}

export async function runTransition(options: TransitionOptions, ctx: CliContext): Promise<Outcome> {
  const { printOrder } = await import("../../output/orders.js");
  const { stdoutOf } = await import("../../output/stream.js");
  const { betaNotice } = await import("../../output/beta-notice.js");
  const response = await withClient(ctx, options.settings, (api) =>
    api.request<Order>("PATCH", `/store/orders/${options.id}`, { body: { status: options.to } }),
  );
  printOrder(response.body, stdoutOf(ctx, options.settings), { json: options.settings.json });
  await betaNotice(ctx, options.settings, response.headers);
  return { kind: "changed", message: `Order ${options.id} is ${options.to}.` };
}
