import { Argument, Command } from "commander";
import { CONFIG_KEYS, profileOf, withoutValue, type ConfigKey } from "../../config-file.js";
import type { CliContext } from "../../context.js";
import { withExamples } from "../../internal/help.js";
import { printOutcome, type Outcome } from "../../output/outcome.js";
import { globalFlagsOf, readProfile, resolveEnvName } from "../../settings.js";
import { takesGlobalOptions } from "../../internal/global-options.js";

export interface UnsetOptions {
  /** The profile to remove the value from, or undefined for the top level. */
  envName: string | undefined;
  key: ConfigKey;
}

export function unsetCommand(ctx: CliContext): Command {
  const command = new Command("unset")
    .description("Remove a value from the config file (with --env, from that environment; an emptied profile goes too)")
    .addArgument(new Argument("<key>", "what to remove").choices(Object.keys(CONFIG_KEYS)))
    .action(async (key: string, _flags: unknown, self: Command) => {
      const flags = globalFlagsOf(self);
      const outcome = await runUnset({ envName: resolveEnvName(flags, ctx), key: key as ConfigKey }, ctx);
      printOutcome(outcome, ctx, { json: flags.json === true });
    });
  takesGlobalOptions(command, ["profile", "json"]);
  return withExamples(command, "petstore config unset api-key", "petstore config unset base-url --env staging");
}

/** Unsetting what is not set succeeds (the end state is the one asked for) and says so; an unknown --env is exit 2. */
export async function runUnset(options: UnsetOptions, ctx: CliContext): Promise<Outcome> {
  const { envName, key } = options;
  await readProfile(ctx.config, envName);
  const data = await ctx.config.read();
  const where = envName === undefined ? "" : ` for environment ${envName}`;
  if (profileOf(data, envName)?.[CONFIG_KEYS[key]] === undefined) {
    return { kind: "changed", message: `${key} was not set${where} in ${ctx.config.path}.` };
  }
  await ctx.config.write(withoutValue(data, envName, key));
  return { kind: "changed", message: `Removed ${key}${where} from ${ctx.config.path}.` };
}
