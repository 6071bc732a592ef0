import { Command } from "commander";
import type { Order } from "../../../contract/values.js";
import { withClient, type CliContext } from "../../context.js";
import { idValue } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import type { Outcome } from "../../output/outcome.js";
import { printOutcome } from "../../output/outcome.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";
import { addJsonFields } from "../../output/json-shaping.js";
import { ORDER_FIELDS } from "../../output/record-fields.js";

export interface PlaceOptions {
  settings: Settings;
  petId: number;
}

export function placeCommand(ctx: CliContext): Command {
  const command = new Command("place")
    .description("Order a pet (beta): it must be available, and becomes pending until the order is delivered or cancelled")
    .argument("<petId>", "the pet's id, a positive integer")
    .action(async (petId: string, _flags: unknown, self: Command) => {
      const id = idValue("<petId>", petId);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      printOutcome(await runPlace({ settings, petId: id }, ctx), ctx, settings);
    });
  takesGlobalOptions(command, API_GLOBALS);
  addJsonFields(command, ORDER_FIELDS);
  return withExamples(command, "petstore orders place 42", "petstore orders place 42 --json | jq .id");
}

export async function runPlace(options: PlaceOptions, ctx: CliContext): Promise<Outcome> {
  const { printOrder } = await import("../../output/orders.js");
  const { stdoutOf } = await import("../../output/stream.js");
  const { betaNotice } = await import("../../output/beta-notice.js");
  const response = await withClient(ctx, options.settings, (api) =>
    api.request<Order>("POST", "/store/orders", { body: { petId: options.petId } }),
  );
  printOrder(response.body, stdoutOf(ctx, options.settings), { json: options.settings.json });
  await betaNotice(ctx, options.settings, response.headers);
  return { kind: "changed", message: `Placed order ${response.body.id}: pet ${options.petId} is pending.` };
}
