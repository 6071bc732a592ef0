import { Argument, Command } from "commander";
import { CONFIG_KEYS, readConfigFile, withValue, writeConfigFile, type ConfigKey } from "../../config-file.js";
import type { CliContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { withExamples } from "../../internal/help.js";
import { globalFlagsOf, resolveConfigTarget, type ConfigTarget } from "../../settings.js";

export interface SetOptions {
  target: ConfigTarget;
  key: ConfigKey;
  /** The value, or "-" to read it from stdin (keeps an API key out of shell history). */
  value: string;
}

export function setCommand(ctx: CliContext): Command {
  const command = new Command("set")
    .description("Set a value in the config file (file mode 0600); with --env, in that environment's profile")
    .addArgument(new Argument("<key>", "what to set").choices(Object.keys(CONFIG_KEYS)))
    .argument("<value>", 'the value, or "-" to read it from stdin')
    .action(async (key: string, value: string, _flags: unknown, self: Command) => {
      const target = resolveConfigTarget(globalFlagsOf(self), ctx);
      await runSet({ target, key: key as ConfigKey, value }, ctx);
    });
  return withExamples(
    command,
    "petstore config set base-url https://staging.example.com/v1 --env staging",
    "petstore config set api-key - --env staging < staging-key.txt",
    "pbpaste | petstore config set api-key -",
  );
}

export async function runSet(options: SetOptions, ctx: CliContext): Promise<void> {
  const value = options.value === "-" ? await readValue(ctx) : options.value;
  if (value === "") throw new UsageError(`the value for ${options.key} is empty`);
  if (options.key === "base-url") checkUrl(value);
  const { path, envName } = options.target;
  const data = await readConfigFile(path);
  await writeConfigFile(path, withValue(data, envName, options.key, value));
  if (ctx.io.isStderrTTY) {
    const where = envName === undefined ? "" : ` for environment ${envName}`;
    ctx.io.stderr.write(`Set ${options.key}${where} in ${path}.\n`);
  }
}

async function readValue(ctx: CliContext): Promise<string> {
  if (ctx.io.isStdinTTY && ctx.io.isStderrTTY) ctx.io.stderr.write("Paste the value, then press Enter and Ctrl-D:\n");
  return (await ctx.io.readStdin()).trim();
}

function checkUrl(value: string): void {
  let protocol = "";
  try {
    protocol = new URL(value).protocol;
  } catch {
    // protocol stays empty: reported below.
  }
  if (protocol !== "http:" && protocol !== "https:") {
    throw new UsageError(`base-url must be an http or https URL, got "${value}"`);
  }
}
