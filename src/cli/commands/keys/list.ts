import { Command } from "commander";
import type { KeyView } from "../../../contract/values.js";
import type { CliContext } from "../../context.js";
import { withExamples } from "../../internal/help.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";

export interface KeysListOptions {
  settings: Settings;
}

export function listCommand(ctx: CliContext): Command {
  const command = new Command("list")
    .description("List API keys, never their secrets (admin key needed)")
    .action(async (_flags: unknown, self: Command) => {
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      await runKeysList({ settings }, ctx);
    });
  return withExamples(
    command,
    "petstore keys list",
    "petstore keys list | awk -F'\\t' '$10 == \"\" {print $1}'   # ids of keys not revoked",
  );
}

export async function runKeysList(options: KeysListOptions, ctx: CliContext): Promise<void> {
  const { withApiClient } = await import("../../http.js");
  const { printKeys } = await import("../../output/keys.js");
  const { stdoutOf } = await import("../../output/stream.js");
  const response = await withApiClient(options.settings, ctx, (api) => api.request<KeyView[]>("GET", "/keys"));
  if (!Array.isArray(response.body)) throw new Error(`expected a JSON array of keys from ${response.url}`);
  const stdout = stdoutOf(ctx, options.settings);
  printKeys(response.body, stdout, { json: options.settings.json });
  if (stdout.isTTY && !options.settings.json && response.body.length === 0) ctx.io.stderr.write("No keys found.\n");
}
