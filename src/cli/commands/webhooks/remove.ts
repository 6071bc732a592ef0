import { Command } from "commander";
import type { Webhook } from "../../../contract/values.js";
import { withClient, type CliContext } from "../../context.js";
import { ExitCode, SilentError, UsageError } from "../../errors.js";
import { canAsk } from "../../internal/ask.js";
import { deleteOnce } from "../../internal/delete-once.js";
import type { ApiClient } from "../../http.js";
import { idValue } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import { printOutcome, type Outcome } from "../../output/outcome.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";

export interface RemoveWebhookOptions {
  settings: Settings;
  id: number;
  /** --yes: remove without asking (needed without a terminal). */
  yes: boolean;
}

export function removeCommand(ctx: CliContext): Command {
  const command = new Command("remove")
    .alias("rm")
    .description("Remove a webhook endpoint by id (admin key needed): nothing more is sent to it. Asks first on a terminal")
    .argument("<id>", "the endpoint's id, a positive integer")
    .option("-y, --yes", "remove without asking (required when not on a terminal)")
    .action(async (id: string, flags: { yes?: boolean }, self: Command) => {
      const webhookId = idValue("<id>", id);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      printOutcome(await runRemove({ settings, id: webhookId, yes: flags.yes === true }, ctx), ctx, settings);
    });
  takesGlobalOptions(command, API_GLOBALS);
  return withExamples(command, "petstore webhooks remove 3", "petstore webhooks remove 3 --yes   # in a script");
}

/** Removes after a confirmation that names the endpoint, fetched first; with --yes, one DELETE and nothing else. */
export async function runRemove(options: RemoveWebhookOptions, ctx: CliContext): Promise<Outcome> {
  if (!options.yes && !canAsk(ctx)) {
    throw new UsageError(`webhooks remove asks before it removes, and there is no terminal to ask on; add --yes to remove endpoint ${options.id}`);
  }
  return withClient(ctx, options.settings, async (api) => {
    if (!options.yes) await confirmRemove(api, options.id, ctx);
    if ((await deleteOnce(api, `/webhooks/${options.id}`)) === "gone-on-retry") {
      return { kind: "notice", message: `webhook ${options.id} was gone when a retry of the DELETE arrived: the first attempt got no answer and most likely removed it.` };
    }
    return { kind: "changed", message: `Removed webhook ${options.id}.` };
  });
}

async function confirmRemove(api: ApiClient, id: number, ctx: CliContext): Promise<void> {
  const { safeLine } = await import("../../output/safe-text.js");
  const webhook = (await api.request<Webhook>("GET", `/webhooks/${id}`)).body;
  const state = webhook.enabled ? "" : ", disabled";
  if (!(await ctx.prompt.confirm(`Remove webhook ${webhook.id} → ${safeLine(webhook.url)}${state}? Its pending deliveries are dropped.`))) {
    ctx.io.stderr.write(`Not removed: webhook ${id}.\n`);
    throw new SilentError(ExitCode.usage);
  }
}
