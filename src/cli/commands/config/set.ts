import { resolve } from "node:path";
import { Argument, Command } from "commander";
import { parseHttpUrl } from "../../../support/http-url.js";
import { API_KEY_SHAPE, CONFIG_KEYS, withValue, type ConfigKey } from "../../config-file.js";
import type { CliContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { askForMissing, canAsk, validatorOf } from "../../internal/ask.js";
import { withExamples } from "../../internal/help.js";
import { printOutcome, type Outcome } from "../../output/outcome.js";
import { globalFlagsOf, resolveEnvName } from "../../settings.js";
import { takesGlobalOptions } from "../../internal/global-options.js";

export interface SetOptions {
  /** The profile to write into, or undefined for the top level. */
  envName: string | undefined;
  key: ConfigKey;
  /** The value, "-" to read it from stdin (keeps an API key out of shell history), or undefined to ask on the terminal. */
  value: string | undefined;
  /** --force: store an api-key of another shape (an operator's PETSTORE_ADMIN_KEY may be any 24 characters). */
  force?: boolean;
}

export function setCommand(ctx: CliContext): Command {
  const command = new Command("set")
    .description("Set a value in the config file (file mode 0600); with --env, in that environment's profile")
    .addArgument(new Argument("<key>", "what to set").choices(Object.keys(CONFIG_KEYS)))
    .argument("[value]", 'the value, or "-" to read it from stdin; left out on a terminal, it is asked for (an API key masked)')
    .option("--force", "store an api-key not shaped like the keys `keys create` makes (an operator's PETSTORE_ADMIN_KEY)")
    .action(async (key: string, value: string | undefined, own: { force?: boolean }, self: Command) => {
      const flags = globalFlagsOf(self);
      const outcome = await runSet({ envName: resolveEnvName(flags, ctx), key: key as ConfigKey, value, force: own.force === true }, ctx);
      printOutcome(outcome, ctx, { json: flags.json === true });
    });
  takesGlobalOptions(command, ["profile", "json"]);
  return withExamples(
    command,
    "petstore config set base-url https://staging.example.com/v1 --env staging",
    "petstore config set api-key --env staging       # asks for it, masked",
    "petstore config set api-key - --env staging < staging-key.txt",
    "pbpaste | petstore config set api-key -",
  );
}

export async function runSet(options: SetOptions, ctx: CliContext): Promise<Outcome> {
  const typed = await valueOf(options, ctx);
  checkValue(options, typed);
  // A path typed here is relative to where it was typed, not to the config file's folder.
  const value = options.key === "ca-cert" ? resolve(typed) : typed;
  const { envName } = options;
  await ctx.config.write(withValue(await ctx.config.read(), envName, options.key, value));
  const where = envName === undefined ? "" : ` for environment ${envName}`;
  return { kind: "changed", message: `Set ${options.key}${where} in ${ctx.config.path}.` };
}

/** The value typed, read from stdin, or (on a terminal) asked for: a key masked, on one line. */
async function valueOf(options: SetOptions, ctx: CliContext): Promise<string> {
  if (options.value !== undefined && (options.value !== "-" || !canAsk(ctx))) {
    return options.value === "-" ? (await ctx.io.readStdin()).trim() : options.value;
  }
  const where = options.envName === undefined ? "" : ` for ${options.envName}`;
  return askForMissing(ctx, {
    flag: "<value>",
    question: `${QUESTIONS[options.key]}${where}?`,
    secret: options.key === "api-key",
    validate: validatorOf((value) => checkValue(options, value)),
  });
}

const QUESTIONS: Record<ConfigKey, string> = {
  "base-url": "Base URL",
  "api-key": "API key",
  "deprecation-notices": "Deprecation notices (on or off)",
  "ca-cert": "CA certificate file (PEM)",
};

function checkValue(options: SetOptions, value: string): void {
  if (value === "") throw new UsageError(`the value for ${options.key} is empty`);
  if (options.key === "base-url" && !parseHttpUrl(value)) {
    throw new UsageError(`base-url must be an http or https URL, got "${value}"`);
  }
  if (options.key === "deprecation-notices" && value !== "on" && value !== "off") {
    throw new UsageError(`deprecation-notices must be on or off, got "${value}"`);
  }
  // Not repeated in the message: it may be a secret pasted into the wrong place.
  if (options.key === "api-key" && options.force !== true && !API_KEY_SHAPE.test(value)) {
    throw new UsageError(
      "api-key must be an API key as `keys create` prints it: ps_ and 40 letters and digits " +
        "(an operator's PETSTORE_ADMIN_KEY of another shape: add --force)",
    );
  }
}
