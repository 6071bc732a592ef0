import { Command } from "commander";
import { LIST_LIMIT_MAX, type Webhook } from "../../../contract/values.js";
import { withClient, type CliContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { integerFlag } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import { printOutcome, type Outcome } from "../../output/outcome.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { DEFAULT_LIST_LIMIT } from "../pets/list.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";
import { addJsonFields } from "../../output/json-shaping.js";
import { WEBHOOK_FIELDS } from "../../output/record-fields.js";
import { fetchPages } from "./pages.js";

export interface ListWebhooksOptions {
  settings: Settings;
  /** How many endpoints are wanted; every one when undefined (--all). */
  limit: number | undefined;
}

export function listCommand(ctx: CliContext): Command {
  const command = new Command("list")
    .alias("ls")
    .description("List webhook endpoints, never their secrets (admin key needed)")
    .option("-L, --limit <n>", `how many endpoints to print (default ${DEFAULT_LIST_LIMIT}), fetched ${LIST_LIMIT_MAX} a page`)
    .option("--all", "every endpoint, however many pages that takes")
    .action(async (flags: { limit?: string; all?: boolean }, self: Command) => {
      const limit = limitOf(flags);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      printOutcome(await runList({ settings, limit }, ctx), ctx, settings);
    });
  takesGlobalOptions(command, [...API_GLOBALS, "pager"]);
  addJsonFields(command, WEBHOOK_FIELDS);
  return withExamples(
    command,
    "petstore webhooks list",
    "petstore webhooks list --all --json id,url,enabled",
    "petstore webhooks list | awk -F'\\t' '$4 == \"false\" {print $1}'   # ids of disabled endpoints",
  );
}

/** --limit or --all, as `orders list` takes them. */
export function limitOf(flags: { limit?: string; all?: boolean }): number | undefined {
  if (flags.all === true && flags.limit !== undefined) throw new UsageError("--all and --limit say different things: give one");
  return flags.all === true ? undefined : integerFlag("--limit", flags.limit, DEFAULT_LIST_LIMIT, 1, Number.MAX_SAFE_INTEGER);
}

export async function runList(options: ListWebhooksOptions, ctx: CliContext): Promise<Outcome> {
  const { printWebhooks } = await import("../../output/webhooks.js");
  const { printPaged } = await import("../../output/pager.js");
  const { records, more } = await withClient(ctx, options.settings, (api) => fetchPages<Webhook>(api, "/webhooks", {}, options.limit));
  await printPaged(ctx, options.settings, (stdout) => printWebhooks(records, stdout, { json: options.settings.json }));
  if (records.length === 0) return { kind: "no-results", message: "No webhook endpoints found." };
  if (more) return { kind: "partial", message: `Showing the first ${records.length} endpoint${records.length === 1 ? "" : "s"}; more exist: raise --limit, or use --all.` };
  return { kind: "done" };
}
