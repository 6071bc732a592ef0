import { Command } from "commander";
import type { KeyView } from "../../../contract/values.js";
import { withClient, type CliContext } from "../../context.js";
import { ApiError, SilentError, UsageError, ExitCode } from "../../errors.js";
import { canAsk } from "../../internal/ask.js";
import { refuseSecret } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import { printOutcome, type Outcome } from "../../output/outcome.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";

export interface RevokeOptions {
  settings: Settings;
  id: string;
  /** --yes: revoke without asking (needed without a terminal, and for the key in use). */
  yes: boolean;
}

export function revokeCommand(ctx: CliContext): Command {
  const command = new Command("revoke")
    .alias("rm")
    .description("Revoke an API key by id (admin key needed); it stops working at once. Asks first on a terminal")
    .argument("<id>", "the key's id, as `keys list` shows it")
    .option("-y, --yes", "revoke without asking (required when not on a terminal, and to revoke the key in use)")
    .action(async (id: string, flags: { yes?: boolean }, self: Command) => {
      if (id.trim() === "") throw new UsageError("<id> must not be empty");
      refuseSecret("<id>", id, "key ids look like key_…, as `petstore keys list` shows them");
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      printOutcome(await runRevoke({ settings, id, yes: flags.yes === true }, ctx), ctx, settings);
    });
  takesGlobalOptions(command, API_GLOBALS);
  return withExamples(command, "petstore keys revoke key_123", "petstore keys revoke key_123 --yes   # in a script");
}

/**
 * Revokes after a confirmation: the record is fetched first so the question names it, and so
 * the command knows when it is about to revoke the very key it is using.
 */
export async function runRevoke(options: RevokeOptions, ctx: CliContext): Promise<Outcome> {
  if (!options.yes && !canAsk(ctx)) {
    throw new UsageError(`keys revoke asks before it revokes, and there is no terminal to ask on; add --yes to revoke ${options.id}`);
  }
  return withClient(ctx, options.settings, async (api) => {
    const keys = (await api.request<KeyView[]>("GET", "/keys")).body;
    const key = Array.isArray(keys) ? keys.find((candidate) => candidate.id === options.id) : undefined;
    if (key === undefined) {
      const body = { code: "not_found", message: `no key with id ${options.id}`, status: 404 };
      throw new ApiError(body, "`petstore keys list` shows the ids; nothing was revoked.");
    }
    const inUse = options.settings.apiKey !== undefined && options.settings.apiKey.startsWith(key.prefix);
    if (inUse && !options.yes) {
      throw new UsageError(`${describeKey(key)} is the key this command is using: revoking it locks you out. Add --yes to revoke it anyway.`);
    }
    if (!options.yes && !(await ctx.prompt.confirm(`Revoke ${describeKey(key)}? It stops working at once.`))) {
      ctx.io.stderr.write(`Not revoked: ${key.id}.\n`);
      throw new SilentError(ExitCode.usage);
    }
    await api.request("DELETE", `/keys/${encodeURIComponent(key.id)}`);
    // Like gh: a confirmation for people, silence (and exit code 0) for scripts.
    return { kind: "changed", message: `Revoked key ${key.id}${inUse ? " (the key this command used)" : ""}.` };
  });
}

/** `key key_1 "ci" (ps_abc123…, pro plan)`: what a person recognises a key by. */
function describeKey(key: KeyView): string {
  const name = key.name === null ? "" : ` "${key.name}"`;
  const state = key.revokedAt !== null ? ", already revoked" : key.admin ? ", admin" : "";
  return `key ${key.id}${name} (${key.prefix}…, ${key.plan} plan${state})`;
}
