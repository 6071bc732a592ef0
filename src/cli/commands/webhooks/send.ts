// `webhooks test` and `webhooks retry`: each one POST that makes a delivery due now, printed as
// `webhooks deliveries` prints one.
import type { WebhookDelivery } from "../../../contract/values.js";
import { withClient, type CliContext } from "../../context.js";
import type { Settings } from "../../settings.js";

export interface SendOptions {
  settings: Settings;
  /** `/webhooks/3/test`, `/webhooks/3/deliveries/9/retry`. */
  path: string;
  /** Said on a terminal's stderr once it is due. */
  message: (delivery: WebhookDelivery) => string;
}

export async function runSend(options: SendOptions, ctx: CliContext): Promise<void> {
  const { printDelivery } = await import("../../output/webhook-deliveries.js");
  const { stdoutOf } = await import("../../output/stream.js");
  const { printOutcome } = await import("../../output/outcome.js");
  const response = await withClient(ctx, options.settings, (api) => api.request<WebhookDelivery>("POST", options.path));
  printDelivery(response.body, stdoutOf(ctx, options.settings), { json: options.settings.json });
  printOutcome({ kind: "changed", message: `${options.message(response.body)}; \`petstore webhooks deliveries ${response.body.webhookId}\` shows how it went.` }, ctx, options.settings);
}
