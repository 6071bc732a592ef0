import { Command, Option } from "commander";
import {
  isWebhookEventType,
  WEBHOOK_DESCRIPTION_MAX_LENGTH,
  WEBHOOK_EVENT_TYPES,
  webhookUrlProblem,
  type CreatedWebhook,
  type NewWebhook,
  type WebhookEventType,
} from "../../../contract/values.js";
import { withClient, type CliContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { textFlag } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";
import { addJsonFields } from "../../output/json-shaping.js";
import { CREATED_WEBHOOK_FIELDS } from "../../output/record-fields.js";

interface AddFlags {
  types?: string;
  description?: string;
}

export interface AddWebhookOptions {
  settings: Settings;
  webhook: NewWebhook;
}

export function addCommand(ctx: CliContext): Command {
  const command = new Command("add")
    .description("Add a webhook endpoint (admin key needed) and print its signing secret, which is shown only once")
    .argument("<url>", "where each event is POSTed: an http or https URL")
    .addOption(typesOption("the event types sent to it, comma-separated (default: every type)"))
    .option("--description <text>", `a note for people (at most ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters)`)
    .addHelpText(
      "after",
      "\nOutput: stdout carries the signing secret alone on its line (--json: the whole endpoint object);\n" +
        "what was added and the warning that the secret is not shown again go to stderr.",
    )
    .action(async (url: string, flags: AddFlags, self: Command) => {
      const webhook: NewWebhook = { url: urlValue("<url>", url) };
      if (flags.types !== undefined) webhook.types = typesValue(flags.types);
      const description = textFlag("--description", flags.description, WEBHOOK_DESCRIPTION_MAX_LENGTH);
      if (description !== undefined) webhook.description = description;
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      await runAdd({ settings, webhook }, ctx);
    });
  takesGlobalOptions(command, API_GLOBALS);
  addJsonFields(command, CREATED_WEBHOOK_FIELDS);
  return withExamples(
    command,
    "petstore webhooks add https://example.com/hooks/petstore",
    'SECRET=$(petstore webhooks add https://ci.example.com/hook --types pet.created,order.created --description "CI")',
    "petstore webhooks add https://example.com/hook --json id,secret",
  );
}

export async function runAdd(options: AddWebhookOptions, ctx: CliContext): Promise<void> {
  const { printCreatedWebhook } = await import("../../output/webhooks.js");
  const { stderrOf, stdoutOf } = await import("../../output/stream.js");
  const response = await withClient(ctx, options.settings, (api) => api.request<CreatedWebhook>("POST", "/webhooks", { body: options.webhook }));
  const { settings } = options;
  printCreatedWebhook(response.body, stdoutOf(ctx, settings), stderrOf(ctx, settings), { json: settings.json });
}

/** `--types <type,...>`: choices() only names the types for help and completion; typesValue checks the list. */
export function typesOption(description: string): Option {
  return new Option("--types <type,...>", description).choices(WEBHOOK_EVENT_TYPES).argParser((value: string) => value);
}

/** An endpoint URL, refused here for what the server would refuse it for, so a mistake costs no request. */
export function urlValue(name: string, value: string): string {
  const problem = webhookUrlProblem(value);
  if (problem !== undefined) throw new UsageError(`${name} ${problem}, got ${JSON.stringify(value.slice(0, 80))}`);
  return value;
}

/** `pet.created,order.created` as the server takes it: known types, each once, in the order given. */
export function typesValue(value: string): WebhookEventType[] {
  const names = value.split(",").map((name) => name.trim());
  const known = WEBHOOK_EVENT_TYPES.join(", ");
  if (names.every((name) => name === "")) throw new UsageError(`--types needs at least one event type: ${known}`);
  if (names.includes("")) throw new UsageError(`--types has an empty item in ${JSON.stringify(value)}; separate types with one comma`);
  const unknown = names.find((name) => !isWebhookEventType(name));
  if (unknown !== undefined) throw new UsageError(`--types: unknown event type ${JSON.stringify(unknown)}; the types are ${known}`);
  return [...new Set(names as WebhookEventType[])];
}
