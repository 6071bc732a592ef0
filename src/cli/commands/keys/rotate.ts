import { Command } from "commander";
import type { CreatedKey } from "../../../contract/values.js";
import { withClient, type CliContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { durationFlag } from "../../internal/duration.js";
import { refuseSecret } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";

export interface RotateOptions {
  settings: Settings;
  id: string;
  /** How long the old secret keeps working, in seconds. */
  graceSeconds: number;
}

export function rotateCommand(ctx: CliContext): Command {
  const command = new Command("rotate")
    .description("Give an API key a new secret (admin key needed), printed once; the old one works for the grace period")
    .argument("<id>", "the key's id, as `keys list` shows it")
    .option("--grace <duration>", "how long the old secret keeps working: a number with s, m, h or d (0s ends it now)", "1h")
    .addHelpText(
      "after",
      "\nOutput: as keys create: stdout carries the new secret alone on its line (--json: the whole key object);\n" +
        "id, plan, limits and counters stay the same.",
    )
    .action(async (id: string, flags: { grace: string }, self: Command) => {
      if (id.trim() === "") throw new UsageError("<id> must not be empty");
      refuseSecret("<id>", id, "key ids look like key_…, as `petstore keys list` shows them");
      const graceSeconds = durationFlag("--grace", flags.grace);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      await runRotate({ settings, id, graceSeconds }, ctx);
    });
  takesGlobalOptions(command, API_GLOBALS);
  return withExamples(command, "petstore keys rotate key_123", "petstore keys rotate key_123 --grace 0s   # a leaked secret: end it now");
}

export async function runRotate(options: RotateOptions, ctx: CliContext): Promise<void> {
  const { printCreatedKey } = await import("../../output/keys.js");
  const { stderrOf, stdoutOf } = await import("../../output/stream.js");
  const path = `/keys/${encodeURIComponent(options.id)}/rotate`;
  const response = await withClient(ctx, options.settings, (api) =>
    api.request<CreatedKey>("POST", path, { body: { graceSeconds: options.graceSeconds } }),
  );
  const { settings } = options;
  printCreatedKey(response.body, stdoutOf(ctx, settings), stderrOf(ctx, settings), { json: settings.json });
}
