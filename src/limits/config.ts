// Loads the limits part of `serve --config <file>`: any subset of the defaults may be overridden.
import * as z from "zod";
import { summarizeIssue } from "../contract/validation.js";
import { JsonFileError, readJsonFile } from "../support/json-file.js";
import { defaultLimitsConfig, type LimitsConfig } from "./plans.js";

/** The config file is unreadable or invalid; `field` is the dotted path of the offending value. */
export class LimitsConfigError extends Error {
  constructor(
    readonly file: string,
    readonly field: string | undefined,
    reason: string,
  ) {
    super(`invalid config file ${file}: ${field ? `${field}: ` : ""}${reason}`);
    this.name = "LimitsConfigError";
  }
}

const count = z
  .int({ error: `must be an integer between 1 and ${Number.MAX_SAFE_INTEGER}` })
  .min(1, { error: "must be at least 1" });

const object = { error: "must be an object" };

const LimitsOverrideSchema = z.strictObject({ perMinute: count.optional(), perDay: count.optional() }, object);

const PlansOverrideSchema = z.strictObject(
  {
    free: LimitsOverrideSchema.optional(),
    pro: LimitsOverrideSchema.optional(),
    business: LimitsOverrideSchema.optional(),
  },
  object,
);

const BanOverrideSchema = z.strictObject(
  {
    threshold: z.number({ error: "must be a number" }).positive({ error: "must be greater than 0" }).optional(),
    durationSeconds: count.optional(),
  },
  object,
);

/** The file as written: every part optional, nothing unknown. */
const ServeConfigSchema = z.strictObject(
  {
    plans: PlansOverrideSchema.optional(),
    anonymous: LimitsOverrideSchema.optional(),
    admin: LimitsOverrideSchema.optional(),
    ban: BanOverrideSchema.optional(),
  },
  object,
);

type ServeConfigFile = z.infer<typeof ServeConfigSchema>;

/**
 * Reads and validates a config file and merges it over the defaults.
 * Throws LimitsConfigError naming the file and the field.
 *
 * @example await loadServeConfig("petstore.config.json")
 */
export async function loadServeConfig(path: string): Promise<LimitsConfig> {
  const json = await readConfigJson(path);
  const parsed = ServeConfigSchema.safeParse(json);
  if (!parsed.success) throw toConfigError(path, parsed.error);
  return mergeLimitsConfig(parsed.data);
}

// Validated by the caller rather than inside readJsonFile: the zod issue carries the field to name.
async function readConfigJson(path: string): Promise<unknown> {
  let json: unknown;
  try {
    json = await readJsonFile(path, (value) => value);
  } catch (error) {
    if (error instanceof JsonFileError) throw new LimitsConfigError(path, undefined, error.reason);
    throw error;
  }
  // Unlike the files beside the db, a config file named on the command line must exist.
  if (json === undefined) throw new LimitsConfigError(path, undefined, "cannot be read (ENOENT)");
  return json;
}

/** The defaults with a validated file's overrides applied; anonymous follows the (overridden) free plan. */
function mergeLimitsConfig(file: ServeConfigFile): LimitsConfig {
  const base = defaultLimitsConfig();
  const free = { ...base.plans.free, ...file.plans?.free };
  return {
    plans: {
      free,
      pro: { ...base.plans.pro, ...file.plans?.pro },
      business: { ...base.plans.business, ...file.plans?.business },
    },
    anonymous: { ...free, ...file.anonymous },
    admin: { ...base.admin, ...file.admin },
    ban: { ...base.ban, ...file.ban },
  };
}

function toConfigError(file: string, error: z.ZodError): LimitsConfigError {
  const summary = summarizeIssue(error);
  if (!summary) return new LimitsConfigError(file, undefined, "is invalid");
  if (summary.kind === "unknown_field") {
    const hint = summary.field === "plans.enterprise" ? " (enterprise keys carry their own limits)" : "";
    return new LimitsConfigError(file, summary.field, `unknown field${hint}`);
  }
  if (summary.kind === "not_an_object" || summary.field === "") return new LimitsConfigError(file, undefined, "must be a JSON object");
  return new LimitsConfigError(file, summary.field, summary.rule);
}
