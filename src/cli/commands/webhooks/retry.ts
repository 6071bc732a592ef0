import { Command } from "commander";
import type { CliContext } from "../../context.js";
import { idValue } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import { globalFlagsOf, resolveSettings } from "../../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";
import { addJsonFields } from "../../output/json-shaping.js";
import { DELIVERY_FIELDS } from "../../output/record-fields.js";
import { runSend } from "./send.js";

export function retryCommand(ctx: CliContext): Command {
  const command = new Command("retry")
    .description("Send a delivery again now, whatever its status, with the same webhook-id (admin key needed)")
    .argument("<id>", "the endpoint's id, a positive integer")
    .argument("<deliveryId>", "the delivery's id, as `webhooks deliveries <id>` shows it")
    .action(async (id: string, deliveryId: string, _flags: unknown, self: Command) => {
      const webhookId = idValue("<id>", id);
      const delivery = idValue("<deliveryId>", deliveryId);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      const path = `/webhooks/${webhookId}/deliveries/${delivery}/retry`;
      await runSend({ settings, path, message: () => `Delivery ${delivery} of webhook ${webhookId} is due again now` }, ctx);
    });
  takesGlobalOptions(command, API_GLOBALS);
  addJsonFields(command, DELIVERY_FIELDS);
  return withExamples(command, "petstore webhooks retry 3 41", "petstore webhooks deliveries 3 --status failed --json id --jq '.[].id' | xargs -n1 petstore webhooks retry 3");
}
