import { Command } from "commander";
import { withClient, type CliContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { withExamples } from "../../internal/help.js";
import { printOutcome, type Outcome } from "../../output/outcome.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";

export interface RevokeOptions {
  settings: Settings;
  id: string;
}

export function revokeCommand(ctx: CliContext): Command {
  const command = new Command("revoke")
    .description("Revoke an API key by id (admin key needed); it stops working at once")
    .argument("<id>", "the key's id, as `keys list` shows it")
    .action(async (id: string, _flags: unknown, self: Command) => {
      if (id.trim() === "") throw new UsageError("<id> must not be empty");
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      printOutcome(await runRevoke({ settings, id }, ctx), ctx, settings);
    });
  return withExamples(command, "petstore keys revoke key_123");
}

export async function runRevoke(options: RevokeOptions, ctx: CliContext): Promise<Outcome> {
  await withClient(ctx, options.settings, (api) => api.request("DELETE", `/keys/${encodeURIComponent(options.id)}`));
  // Like gh: a confirmation for people, silence (and exit code 0) for scripts.
  return { kind: "changed", message: `Revoked key ${options.id}.` };
}
