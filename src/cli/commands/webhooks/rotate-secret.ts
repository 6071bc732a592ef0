import { Command } from "commander";
import { DEFAULT_SECRET_GRACE_SECONDS, MAX_SECRET_GRACE_SECONDS, type CreatedWebhook } from "../../../contract/values.js";
import { withClient, type CliContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { durationFlag } from "../../internal/duration.js";
import { idValue } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";
import { addJsonFields } from "../../output/json-shaping.js";
import { CREATED_WEBHOOK_FIELDS } from "../../output/record-fields.js";

export interface RotateSecretOptions {
  settings: Settings;
  id: number;
  /** How long the old secret keeps signing, in seconds; the server's default (24 h) when undefined. */
  graceSeconds?: number;
}

export function rotateSecretCommand(ctx: CliContext): Command {
  const command = new Command("rotate-secret")
    .description("Give a webhook endpoint a new signing secret (admin key needed), printed once; the old one keeps signing for the grace")
    .argument("<id>", "the endpoint's id, a positive integer")
    .option("--grace <duration>", "how long the old secret keeps signing beside the new one: a number with s, m, h or d (default 24h; 0s ends it now)")
    .addHelpText("after", "\nOutput: as webhooks add: stdout carries the new secret alone on its line (--json: the whole endpoint object).")
    .action(async (id: string, flags: { grace?: string }, self: Command) => {
      const webhookId = idValue("<id>", id);
      const graceSeconds = flags.grace === undefined ? undefined : graceOf(flags.grace);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      await runRotateSecret({ settings, id: webhookId, graceSeconds }, ctx);
    });
  takesGlobalOptions(command, API_GLOBALS);
  addJsonFields(command, CREATED_WEBHOOK_FIELDS);
  return withExamples(command, "petstore webhooks rotate-secret 3", "petstore webhooks rotate-secret 3 --grace 0s   # a leaked secret: end it now");
}

function graceOf(value: string): number {
  const seconds = durationFlag("--grace", value);
  if (seconds > MAX_SECRET_GRACE_SECONDS) throw new UsageError(`--grace must be at most ${MAX_SECRET_GRACE_SECONDS / 86400}d, got "${value}"`);
  return seconds;
}

export async function runRotateSecret(options: RotateSecretOptions, ctx: CliContext): Promise<void> {
  const { printCreatedWebhook } = await import("../../output/webhooks.js");
  const { stderrOf, stdoutOf } = await import("../../output/stream.js");
  const body = options.graceSeconds === undefined ? {} : { graceSeconds: options.graceSeconds };
  const response = await withClient(ctx, options.settings, (api) =>
    api.request<CreatedWebhook>("POST", `/webhooks/${options.id}/rotate-secret`, { body }),
  );
  const { settings } = options;
  printCreatedWebhook(response.body, stdoutOf(ctx, settings), stderrOf(ctx, settings), { json: settings.json, rotation: { graceSeconds: options.graceSeconds ?? DEFAULT_SECRET_GRACE_SECONDS } });
}
