import { Argument, Command } from "commander";
import { CONFIG_KEYS, type ConfigKey } from "../../config-file.js";
import type { CliContext } from "../../context.js";
import { withExamples } from "../../internal/help.js";
import { globalFlagsOf, readProfile, resolveEnvName } from "../../settings.js";
import { takesGlobalOptions } from "../../internal/global-options.js";

export interface GetOptions {
  /** The profile to read, or undefined for the top level. */
  envName: string | undefined;
  key: ConfigKey;
}

export function getCommand(ctx: CliContext): Command {
  const command = new Command("get")
    .description("Print a value from the config file (with --env, from that environment); exit 1 when unset")
    .addArgument(new Argument("<key>", "what to print").choices(Object.keys(CONFIG_KEYS)))
    .action(async (key: string, _flags: unknown, self: Command) => {
      await runGet({ envName: resolveEnvName(globalFlagsOf(self), ctx), key: key as ConfigKey }, ctx);
    });
  takesGlobalOptions(command, ["profile", "json"]);
  return withExamples(command, "petstore config get base-url", "petstore config get base-url --env staging");
}

export async function runGet(options: GetOptions, ctx: CliContext): Promise<void> {
  const { envName } = options;
  const value = (await readProfile(ctx.config, envName))[CONFIG_KEYS[options.key]];
  if (value === undefined) {
    const where = envName === undefined ? "" : ` for environment ${envName}`;
    throw new Error(`${options.key} is not set${where} in ${ctx.config.path}`);
  }
  ctx.io.stdout.write(`${value}\n`);
}
