import { Command } from "commander";
import type { Webhook } from "../../../contract/values.js";
import { withClient, type CliContext } from "../../context.js";
import { idValue } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";
import { addJsonFields } from "../../output/json-shaping.js";
import { WEBHOOK_FIELDS } from "../../output/record-fields.js";

export interface GetWebhookOptions {
  settings: Settings;
  id: number;
}

export function getCommand(ctx: CliContext): Command {
  const command = new Command("get")
    .description("Print one webhook endpoint by id, without its secret (admin key needed)")
    .argument("<id>", "the endpoint's id, a positive integer")
    .action(async (id: string, _flags: unknown, self: Command) => {
      const webhookId = idValue("<id>", id);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      await runGet({ settings, id: webhookId }, ctx);
    });
  takesGlobalOptions(command, API_GLOBALS);
  addJsonFields(command, WEBHOOK_FIELDS);
  return withExamples(command, "petstore webhooks get 3", "petstore webhooks get 3 --json enabled --jq .enabled");
}

export async function runGet(options: GetWebhookOptions, ctx: CliContext): Promise<void> {
  const { printWebhook } = await import("../../output/webhooks.js");
  const { stdoutOf } = await import("../../output/stream.js");
  const response = await withClient(ctx, options.settings, (api) => api.request<Webhook>("GET", `/webhooks/${options.id}`));
  printWebhook(response.body, stdoutOf(ctx, options.settings), { json: options.settings.json });
}
