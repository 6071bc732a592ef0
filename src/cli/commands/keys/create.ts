import { Command, Option } from "commander";
import { KEY_NAME_MAX_LENGTH, PLANS, type CreatedKey, type NewKey, type Plan } from "../../../contract/values.js";
import { canonicalScopes, isScope, SCOPES, type Scope } from "../../../contract/scopes.js";
import { withClient, type CliContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { askForMissing } from "../../internal/ask.js";
import { durationFlag } from "../../internal/duration.js";
import { integerFlag, textFlag } from "../../internal/flags.js";
import { withExamples } from "../../internal/help.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";

interface CreateFlags {
  plan?: Plan;
  name?: string;
  perMinute?: string;
  perDay?: string;
  expiresIn?: string;
  scopes?: string;
}

export interface CreateOptions {
  settings: Settings;
  key: NewKey;
}

export function createCommand(ctx: CliContext): Command {
  const command = new Command("create")
    .description("Create an API key (admin key needed) and print its secret, which is shown only once")
    .addOption(new Option("--plan <plan>", "the plan, which sets the rate limits; chosen from a list on a terminal").choices(PLANS))
    .option("--name <name>", `a label for the key (at most ${KEY_NAME_MAX_LENGTH} characters)`)
    .option("--per-minute <n>", "requests per minute (enterprise only, with --per-day)")
    .option("--per-day <n>", "requests per day (enterprise only, with --per-minute)")
    .option("--expires-in <duration>", "the key stops working after this long: a number with s, m, h or d (30d)")
    .addOption(
      // choices() only lists the names (help, completion); the list itself is checked by scopesOf.
      new Option("--scopes <scope,...>", "what the key may do, comma-separated (default: every scope)")
        .choices(SCOPES)
        .argParser((value: string) => value),
    )
    .addHelpText(
      "after",
      "\nOutput: stdout carries the secret alone on its line (--json: the whole key object);\n" +
        "the summary and the warning that the secret is not shown again go to stderr.",
    )
    .action(async (flags: CreateFlags, self: Command) => {
      if (flags.plan !== undefined) newKeyOf(flags, flags.plan);
      // Checked before the plan is asked for, so a mistake costs no question either.
      if (flags.expiresIn !== undefined) durationFlag("--expires-in", flags.expiresIn);
      if (flags.scopes !== undefined) scopesOf(flags.scopes);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      const key = newKeyOf(flags, flags.plan ?? (await askPlan(ctx)));
      if (flags.expiresIn !== undefined) key.expiresAt = new Date(ctx.now() + durationFlag("--expires-in", flags.expiresIn) * 1000).toISOString();
      await runCreate({ settings, key }, ctx);
    });
  takesGlobalOptions(command, API_GLOBALS);
  return withExamples(
    command,
    'petstore keys create --plan pro --name "ci"',
    "PETSTORE_API_KEY=$(petstore keys create --plan free) petstore pets list",
    "petstore keys create --plan enterprise --per-minute 5000 --per-day 2000000 --json",
    'petstore keys create --plan free --name "dashboard" --scopes pets:read,events:read',
    'petstore keys create --plan free --name "contractor" --expires-in 30d',
  );
}

export async function runCreate(options: CreateOptions, ctx: CliContext): Promise<void> {
  const { printCreatedKey } = await import("../../output/keys.js");
  const { stderrOf, stdoutOf } = await import("../../output/stream.js");
  const response = await withClient(ctx, options.settings, (api) => api.request<CreatedKey>("POST", "/keys", { body: options.key }));
  const { settings } = options;
  printCreatedKey(response.body, stdoutOf(ctx, settings), stderrOf(ctx, settings), { json: settings.json });
}

async function askPlan(ctx: CliContext): Promise<Plan> {
  const choices = PLANS.map((plan) => ({ value: plan, label: plan, hint: plan === "enterprise" ? "needs --per-minute and --per-day" : undefined }));
  const answer = await askForMissing(ctx, { flag: "--plan <plan>", question: "Plan of the new key?", choices });
  return answer as Plan;
}

/** Checks the flags as the server would, so a mistake costs no request: custom limits are enterprise-only. */
function newKeyOf(flags: CreateFlags, plan: Plan): NewKey {
  const key: NewKey = { plan };
  const name = textFlag("--name", flags.name, KEY_NAME_MAX_LENGTH);
  if (name !== undefined) key.name = name;
  if (flags.scopes !== undefined) key.scopes = scopesOf(flags.scopes);
  const perMinute = integerFlag("--per-minute", flags.perMinute, undefined, 1, Number.MAX_SAFE_INTEGER);
  const perDay = integerFlag("--per-day", flags.perDay, undefined, 1, Number.MAX_SAFE_INTEGER);
  if (plan === "enterprise") {
    if (perMinute === undefined || perDay === undefined) {
      throw new UsageError("--plan enterprise needs both --per-minute and --per-day");
    }
    return { ...key, perMinute, perDay };
  }
  if (perMinute !== undefined || perDay !== undefined) {
    throw new UsageError(`--per-minute and --per-day are only for --plan enterprise; the ${plan} plan has fixed limits`);
  }
  return key;
}

/** `pets:read,events:read` as the server takes it: known names, each once, in their canonical order. */
function scopesOf(value: string): Scope[] {
  const names = value.split(",").map((name) => name.trim());
  if (names.every((name) => name === "")) throw new UsageError(`--scopes needs at least one scope: ${SCOPES.join(", ")}`);
  if (names.includes("")) throw new UsageError(`--scopes has an empty item in ${JSON.stringify(value)}; separate scopes with one comma`);
  const unknown = names.find((name) => !isScope(name));
  if (unknown !== undefined) {
    throw new UsageError(`--scopes: unknown scope ${JSON.stringify(unknown)}; the scopes are ${SCOPES.join(", ")}`);
  }
  return canonicalScopes(names as Scope[]);
}
