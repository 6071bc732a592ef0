import { Command } from "commander";
import { CONFIG_KEYS, maskKey, profileOf, readConfigFile, type ConfigData, type Profile } from "../../config-file.js";
import type { CliContext } from "../../context.js";
import { withExamples } from "../../internal/help.js";
import { renderJson } from "../../output/json.js";
import { globalFlagsOf, resolveConfigTarget, type ConfigTarget } from "../../settings.js";

export interface ConfigListOptions {
  target: ConfigTarget;
  json: boolean;
}

export function listCommand(ctx: CliContext): Command {
  const command = new Command("list")
    .description("Print the config file's values as key=value lines (`<env>.key` for profiles), API keys masked")
    .action(async (_flags: unknown, self: Command) => {
      const flags = globalFlagsOf(self);
      await runConfigList({ target: resolveConfigTarget(flags, ctx), json: flags.json === true }, ctx);
    });
  return withExamples(command, "petstore config list", "petstore config list --env production");
}

export async function runConfigList(options: ConfigListOptions, ctx: CliContext): Promise<void> {
  const { path, envName } = options.target;
  const data = await readConfigFile(path);
  const shown: ConfigData = envName === undefined ? masked(data) : masked(profileOf(data, envName) ?? {});
  if (options.json) {
    ctx.io.stdout.write(renderJson(shown));
    return;
  }
  const lines = [...profileLines(shown, "")];
  for (const [name, profile] of Object.entries(shown.profiles ?? {})) lines.push(...profileLines(profile, `${name}.`));
  ctx.io.stdout.write(lines.map((line) => `${line}\n`).join(""));
  if (lines.length === 0 && ctx.io.isStderrTTY) ctx.io.stderr.write(`Nothing set in ${path}.\n`);
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
