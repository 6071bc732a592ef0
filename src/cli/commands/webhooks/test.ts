import { Command } from "commander";
import type { CliContext } from "../../context.js";
import { idValue } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import { globalFlagsOf, resolveSettings } from "../../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";
import { addJsonFields } from "../../output/json-shaping.js";
import { DELIVERY_FIELDS } from "../../output/record-fields.js";
import { runSend } from "./send.js";

export function testCommand(ctx: CliContext): Command {
  const command = new Command("test")
    .description("Send a webhook.test event to this endpoint only, even while it is disabled (admin key needed)")
    .argument("<id>", "the endpoint's id, a positive integer")
    .action(async (id: string, _flags: unknown, self: Command) => {
      const webhookId = idValue("<id>", id);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      await runSend({ settings, path: `/webhooks/${webhookId}/test`, message: (delivery) => `Sent webhook.test to webhook ${webhookId} (delivery ${delivery.id})` }, ctx);
    });
  takesGlobalOptions(command, API_GLOBALS);
  addJsonFields(command, DELIVERY_FIELDS);
  return withExamples(command, "petstore webhooks test 3", "petstore webhooks test 3 && petstore webhooks deliveries 3 --limit 1");
}
