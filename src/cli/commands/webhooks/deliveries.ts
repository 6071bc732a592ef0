import { Command, Option } from "commander";
import { DELIVERY_STATUSES, LIST_LIMIT_MAX, type DeliveryStatus, type WebhookDelivery } from "../../../contract/values.js";
import { withClient, type CliContext } from "../../context.js";
import { idValue } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import { printOutcome, type Outcome } from "../../output/outcome.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { DEFAULT_LIST_LIMIT } from "../pets/list.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";
import { addJsonFields } from "../../output/json-shaping.js";
import { DELIVERY_FIELDS } from "../../output/record-fields.js";
import { limitOf } from "./list.js";
import { fetchPages } from "./pages.js";

export interface DeliveriesOptions {
  settings: Settings;
  id: number;
  status?: DeliveryStatus;
  /** How many deliveries are wanted; every one when undefined (--all). */
  limit: number | undefined;
}

export function deliveriesCommand(ctx: CliContext): Command {
  const command = new Command("deliveries")
    .description("List an endpoint's deliveries, newest first: attempts, last result, next attempt (admin key needed)")
    .argument("<id>", "the endpoint's id, a positive integer")
    .addOption(new Option("--status <status>", "only deliveries with this status").choices(DELIVERY_STATUSES))
    .option("-L, --limit <n>", `how many deliveries to print (default ${DEFAULT_LIST_LIMIT}), fetched ${LIST_LIMIT_MAX} a page`)
    .option("--all", "every delivery the server keeps, however many pages that takes")
    .action(async (id: string, flags: { status?: DeliveryStatus; limit?: string; all?: boolean }, self: Command) => {
      const webhookId = idValue("<id>", id);
      const limit = limitOf(flags);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      printOutcome(await runDeliveries({ settings, id: webhookId, status: flags.status, limit }, ctx), ctx, settings);
    });
  takesGlobalOptions(command, [...API_GLOBALS, "pager"]);
  addJsonFields(command, DELIVERY_FIELDS);
  return withExamples(
    command,
    "petstore webhooks deliveries 3",
    "petstore webhooks deliveries 3 --status failed --all",
    "petstore webhooks deliveries 3 --status failed --json id --jq '.[].id'   # then webhooks retry 3 <id>",
  );
}

export async function runDeliveries(options: DeliveriesOptions, ctx: CliContext): Promise<Outcome> {
  const { printDeliveries } = await import("../../output/webhook-deliveries.js");
  const { printPaged } = await import("../../output/pager.js");
  const path = `/webhooks/${options.id}/deliveries`;
  const { records, more } = await withClient(ctx, options.settings, (api) => fetchPages<WebhookDelivery>(api, path, { status: options.status }, options.limit));
  await printPaged(ctx, options.settings, (stdout) => printDeliveries(records, stdout, { json: options.settings.json }));
  if (records.length === 0) return { kind: "no-results", message: "No deliveries found." };
  if (more) return { kind: "partial", message: `Showing the newest ${records.length} deliver${records.length === 1 ? "y" : "ies"}; more exist: raise --limit, or use --all.` };
  return { kind: "done" };
}
