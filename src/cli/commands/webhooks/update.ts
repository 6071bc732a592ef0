import { Command } from "commander";
import { WEBHOOK_DESCRIPTION_MAX_LENGTH, type Webhook, type WebhookPatch } from "../../../contract/values.js";
import { withClient, type CliContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { idValue, textFlag } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";
import { addJsonFields } from "../../output/json-shaping.js";
import { WEBHOOK_FIELDS } from "../../output/record-fields.js";
import { typesOption, typesValue, urlValue } from "./add.js";

interface UpdateFlags {
  url?: string;
  types?: string;
  description?: string;
  enable?: boolean;
  disable?: boolean;
}

export interface UpdateWebhookOptions {
  settings: Settings;
  id: number;
  changes: WebhookPatch;
}

export function updateCommand(ctx: CliContext): Command {
  const command = new Command("update")
    .description("Change a webhook endpoint's URL, types, description, or whether it is enabled (admin key needed)")
    .argument("<id>", "the endpoint's id, a positive integer")
    .option("--url <url>", "the new URL: http or https")
    .addOption(typesOption('the event types sent to it, comma-separated; "" sends every type'))
    .option("--description <text>", `a note for people (at most ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters); "" removes it`)
    .option("--enable", "send to it again (nothing it missed while disabled is sent)")
    .option("--disable", "send it nothing until --enable; deliveries already due still go")
    .action(async (id: string, flags: UpdateFlags, self: Command) => {
      const webhookId = idValue("<id>", id);
      const changes = changesOf(flags);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      await runUpdate({ settings, id: webhookId, changes }, ctx);
    });
  takesGlobalOptions(command, API_GLOBALS);
  addJsonFields(command, WEBHOOK_FIELDS);
  return withExamples(
    command,
    "petstore webhooks update 3 --disable",
    "petstore webhooks update 3 --url https://example.com/new-hook --types pet.created",
    'petstore webhooks update 3 --types "" --description ""   # every type, no description',
  );
}

/** The merge patch the flags ask for, refused here when the server would refuse it or it says nothing. */
function changesOf(flags: UpdateFlags): WebhookPatch {
  if (flags.enable === true && flags.disable === true) throw new UsageError("--enable and --disable say different things: give one");
  const changes: WebhookPatch = {};
  if (flags.url !== undefined) changes.url = urlValue("--url", flags.url);
  if (flags.types !== undefined) changes.types = flags.types === "" ? [] : typesValue(flags.types);
  if (flags.description !== undefined) {
    changes.description = flags.description === "" ? null : (textFlag("--description", flags.description, WEBHOOK_DESCRIPTION_MAX_LENGTH) ?? null);
  }
  if (flags.enable === true) changes.enabled = true;
  if (flags.disable === true) changes.enabled = false;
  if (Object.keys(changes).length === 0) throw new UsageError("nothing to change: give --url, --types, --description, --enable or --disable");
  return changes;
}

/** One PATCH; the endpoint as changed is printed as `webhooks get` prints it. */
export async function runUpdate(options: UpdateWebhookOptions, ctx: CliContext): Promise<void> {
  const { printWebhook } = await import("../../output/webhooks.js");
  const { stdoutOf } = await import("../../output/stream.js");
  const headers = { "content-type": "application/merge-patch+json" };
  const response = await withClient(ctx, options.settings, (api) =>
    api.request<Webhook>("PATCH", `/webhooks/${options.id}`, { body: options.changes, headers }),
  );
  printWebhook(response.body, stdoutOf(ctx, options.settings), { json: options.settings.json });
}
