import type { Command } from "commander";
import { configFilePath, profileOf, readConfigFile, type Profile } from "./config-file.js";
import type { CliContext } from "./context.js";
import { UsageError } from "./errors.js";
import { integerFlag } from "./internal/flags.js";

export const DEFAULT_BASE_URL = "http://127.0.0.1:3000/v1";
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_RETRIES = 3;
const MAX_RETRIES = 20;
const ENV_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** The global flags as commander parsed them (strings, unvalidated). */
export interface GlobalFlags {
  baseUrl?: string;
  env?: string;
  apiKey?: string;
  json?: boolean;
  timeout?: string;
  retries?: string;
  verbose?: boolean;
  /** false with --no-color. */
  color?: boolean;
}

/** Where a value came from, for --verbose. */
export type Source = "flag" | "environment" | "config file" | "default";

export interface Settings {
  baseUrl: string;
  apiKey: string | undefined;
  /** The named environment (profile) in use, if any. */
  envName: string | undefined;
  configPath: string;
  json: boolean;
  timeoutMs: number;
  retries: number;
  verbose: boolean;
  /** Colour is allowed (no --no-color, no NO_COLOR); each stream still needs to be a TTY. */
  color: boolean;
  sources: { baseUrl: Source; apiKey: Source | undefined };
}

/** Where `config` commands read and write: the file and the environment chosen by --env or PETSTORE_ENV. */
export interface ConfigTarget {
  path: string;
  envName: string | undefined;
}

export function globalFlagsOf(command: Command): GlobalFlags {
  return command.optsWithGlobals<GlobalFlags>();
}

export function resolveConfigTarget(flags: GlobalFlags, ctx: Pick<CliContext, "env" | "homedir">): ConfigTarget {
  const envName = pick(flags.env, ctx.env.PETSTORE_ENV);
  if (envName !== undefined && !ENV_NAME.test(envName.value)) {
    throw new UsageError(`--env must be a name of letters, digits, ".", "_" or "-", got "${envName.value}"`);
  }
  return { path: configFilePath(ctx.env, ctx.homedir), envName: envName?.value };
}

/**
 * Every setting of a client command, in one place: a flag wins over the environment, which
 * wins over the config file (the --env profile, else its top level), which wins over the default.
 */
export async function resolveSettings(flags: GlobalFlags, ctx: Pick<CliContext, "env" | "homedir">): Promise<Settings> {
  const target = resolveConfigTarget(flags, ctx);
  const profile = await readProfile(target);
  const baseUrl = pick(flags.baseUrl, ctx.env.PETSTORE_BASE_URL, profile.baseUrl) ?? {
    value: DEFAULT_BASE_URL,
    source: "default" as const,
  };
  const apiKey = pick(flags.apiKey, ctx.env.PETSTORE_API_KEY, profile.apiKey);
  return {
    baseUrl: checkBaseUrl(baseUrl.value, baseUrl.source),
    apiKey: apiKey?.value,
    envName: target.envName,
    configPath: target.path,
    json: flags.json === true,
    timeoutMs: integerFlag("--timeout", flags.timeout, DEFAULT_TIMEOUT_MS, 1, 3_600_000),
    retries: integerFlag("--retries", flags.retries, DEFAULT_RETRIES, 0, MAX_RETRIES),
    verbose: flags.verbose === true,
    color: flags.color !== false && !ctx.env.NO_COLOR,
    sources: { baseUrl: baseUrl.source, apiKey: apiKey?.source },
  };
}

/** For --verbose: where the base URL and the key came from, which settles most "why this server?" questions. */
export function describeSources(settings: Pick<Settings, "baseUrl" | "envName" | "sources">): string {
  const from = (source: Source) =>
    source === "config file" && settings.envName !== undefined ? `the config file (environment ${settings.envName})` : `the ${source}`;
  const key = settings.sources.apiKey === undefined ? "none" : `from ${from(settings.sources.apiKey)}`;
  return `* base URL ${settings.baseUrl} from ${from(settings.sources.baseUrl)}; API key ${key}`;
}

async function readProfile(target: ConfigTarget): Promise<Profile> {
  const data = await readConfigFile(target.path);
  const profile = profileOf(data, target.envName);
  if (profile === undefined) {
    const known = Object.keys(data.profiles ?? {});
    const list = known.length > 0 ? `; known: ${known.join(", ")}` : "";
    throw new UsageError(
      `no environment "${target.envName}" in ${target.path}${list}\n` +
        `Add one with: petstore config set base-url <url> --env ${target.envName}`,
    );
  }
  return profile;
}

/** The first value that is set (empty strings count as unset), with where it came from. */
function pick(
  flag: string | undefined,
  environment: string | undefined,
  file?: string,
): { value: string; source: Source } | undefined {
  if (flag !== undefined && flag !== "") return { value: flag, source: "flag" };
  if (environment !== undefined && environment !== "") return { value: environment, source: "environment" };
  if (file !== undefined && file !== "") return { value: file, source: "config file" };
  return undefined;
}

function checkBaseUrl(value: string, source: Source): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new UsageError(`the base URL must be an http or https URL, got "${value}" (from the ${source})`);
  }
  return value.replace(/\/+$/, "");
}
