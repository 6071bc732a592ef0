import { Command } from "commander";
import type { KeyView } from "../../../contract/values.js";
import { withClient, type CliContext } from "../../context.js";
import { withExamples } from "../../internal/help.js";
import { printOutcome, type Outcome } from "../../output/outcome.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";
import { addJsonFields } from "../../output/json-shaping.js";
import { KEY_FIELDS } from "../../output/record-fields.js";

export interface KeysListOptions {
  settings: Settings;
}

export function listCommand(ctx: CliContext): Command {
  const command = new Command("list")
    .alias("ls")
    .description("List API keys, never their secrets (admin key needed)")
    .action(async (_flags: unknown, self: Command) => {
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      printOutcome(await runKeysList({ settings }, ctx), ctx, settings);
    });
  takesGlobalOptions(command, [...API_GLOBALS, "pager"]);
  addJsonFields(command, KEY_FIELDS);
  return withExamples(
    command,
    "petstore keys list",
    "petstore keys list | awk -F'\\t' '$10 == \"\" {print $1}'   # ids of keys not revoked",
  );
}

export async function runKeysList(options: KeysListOptions, ctx: CliContext): Promise<Outcome> {
  const { printKeys } = await import("../../output/keys.js");
  const { printPaged } = await import("../../output/pager.js");
  const response = await withClient(ctx, options.settings, (api) => api.request<KeyView[]>("GET", "/keys"));
  if (!Array.isArray(response.body)) throw new Error(`expected a JSON array of keys from ${response.url}`);
  const keys = response.body;
  await printPaged(ctx, options.settings, (stdout) => printKeys(keys, stdout, { json: options.settings.json, timeZone: ctx.timeZone }));
  return keys.length === 0 ? { kind: "no-results", message: "No keys found." } : { kind: "done" };
}
