import { Command } from "commander";
import { CONFIG_KEYS, maskKey, type ConfigData, type Profile } from "../../config-file.js";
import type { CliContext } from "../../context.js";
import { withExamples } from "../../internal/help.js";
import { renderJson } from "../../output/json.js";
import { printOutcome, type Outcome } from "../../output/outcome.js";
import { globalFlagsOf, readProfile, resolveEnvName } from "../../settings.js";
import { takesGlobalOptions } from "../../internal/global-options.js";

export interface ConfigListOptions {
  /** Only this profile, or the whole file when undefined. */
  envName: string | undefined;
  json: boolean;
}

export function listCommand(ctx: CliContext): Command {
  const command = new Command("list")
    .alias("ls")
    .description("Print the config file's values as key=value lines (`<env>.key` for profiles), API keys masked")
    .action(async (_flags: unknown, self: Command) => {
      const flags = globalFlagsOf(self);
      const options = { envName: resolveEnvName(flags, ctx), json: flags.json === true };
      printOutcome(await runConfigList(options, ctx), ctx, options);
    });
  takesGlobalOptions(command, ["profile", "json"]);
  return withExamples(command, "petstore config list", "petstore config list --env production");
}

export async function runConfigList(options: ConfigListOptions, ctx: CliContext): Promise<Outcome> {
  const { envName } = options;
  const data = await ctx.config.read();
  // An unknown --env is the same usage error (exit 2) as in every other command.
  const shown: ConfigData = envName === undefined ? masked(data) : masked(await readProfile(ctx.config, envName));
  if (options.json) {
    ctx.io.stdout.write(renderJson(shown));
    return { kind: "done" };
  }
  const lines = [...profileLines(shown, "")];
  for (const [name, profile] of Object.entries(shown.profiles ?? {})) lines.push(...profileLines(profile, `${name}.`));
  ctx.io.stdout.write(lines.map((line) => `${line}\n`).join(""));
  return lines.length === 0 ? { kind: "no-results", message: `Nothing set in ${ctx.config.path}.` } : { kind: "done" };
}

function profileLines(profile: Profile, prefix: string): string[] {
  const lines: string[] = [];
  for (const [key, field] of Object.entries(CONFIG_KEYS)) {
    const value = profile[field];
    if (value !== undefined) lines.push(`${prefix}${key}=${value}`);
  }
  return lines;
}

function masked(data: ConfigData): ConfigData {
  const hide = (profile: Profile): Profile =>
    profile.apiKey === undefined ? { ...profile } : { ...profile, apiKey: maskKey(profile.apiKey) };
  const result: ConfigData = hide(data);
  if (data.profiles) {
    result.profiles = Object.fromEntries(Object.entries(data.profiles).map(([name, profile]) => [name, hide(profile)]));
  }
  return result;
}
