// Every setting, client and `serve` alike, in one place: a flag wins over the environment,
// which wins over the config file, which wins over the default. Nothing deeper reads process.env.
import type { Command } from "commander";
// Type-only: the server module itself is imported lazily, by `serve`'s action.
import type { ServeOptions, ServeTls } from "../server/serve.js";
import { LOCAL_BASE_URL } from "../contract/constants.js";
import { parseHttpUrl } from "../support/http-url.js";
import { homedir } from "node:os";
import { dirname, resolve } from "node:path";
import { profileOf, type ConfigStore, type Profile } from "./config-file.js";
import { stateFilePath } from "./state-file.js";
import { UsageError } from "./errors.js";
import { integerFlag } from "./internal/flags.js";
import { pairingProblem, type Origin } from "./internal/key-pairing.js";
import { checkDb, checkRedis } from "./internal/serve-checks.js";
import { resolveServeOps, type ServeOpsFlags } from "./internal/serve-ops-settings.js";

/** Where `petstore serve` listens by default. */
export const DEFAULT_BASE_URL = LOCAL_BASE_URL;
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_RETRIES = 3;
/** --max-wait's default, in seconds: a command waits at most this long in all for Retry-After and backoff. */
export const DEFAULT_MAX_WAIT_S = 60;
const MAX_RETRIES = 20;
const ENV_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const SERVE_DEFAULTS = { port: "3000", host: "127.0.0.1", db: "./petstore.json" };

/** The global flags as commander parsed them (strings, unvalidated). */
export interface GlobalFlags {
  baseUrl?: string;
  env?: string;
  apiKey?: string;
  json?: boolean;
  timeout?: string;
  retries?: string;
  maxWait?: string;
  verbose?: boolean;
  /** false with --no-pager. */
  pager?: boolean;
  /** --color auto|always|never; false with --no-color. */
  color?: string | false;
  caCert?: string;
}

/** `serve`'s own flags as commander parsed them. */
export interface ServeFlags extends ServeOpsFlags {
  port?: string;
  host?: string;
  db?: string;
  redis?: string;
  config?: string;
  quiet?: boolean;
  https?: boolean;
  cert?: string;
  key?: string;
}

/** Where a value came from, for --verbose. */
export type Source = "flag" | "environment" | "config file" | "default";

export interface Settings {
  baseUrl: string;
  apiKey: string | undefined;
  /** The named environment (profile) in use, if any. */
  envName: string | undefined;
  json: boolean;
  timeoutMs: number;
  retries: number;
  /** --max-wait in ms: the most a command waits between attempts, in all. */
  maxWaitMs: number;
  verbose: boolean;
  /** Deprecation notices are shown (not PETSTORE_NO_DEPRECATION_NOTICE=1, not `deprecation-notices off`). */
  deprecationNotices: boolean;
  /** always, never, or auto: each stream coloured when it is a terminal. */
  color: ColorMode;
  /** The pager command for long output on a terminal; undefined for none. */
  pager: string | undefined;
  /** A PEM file of certificates to trust besides the usual ones (--ca-cert): a `serve --https`'s own. */
  caCert: string | undefined;
  sources: { baseUrl: Source; apiKey: Source | undefined };
}

export const COLOR_MODES = ["auto", "always", "never"] as const;
export type ColorMode = (typeof COLOR_MODES)[number];

/**
 * --color (or --no-color) wins; then NO_COLOR (any non-empty value) and TERM=dumb turn auto into never.
 * @example resolveColorMode({ color: "always" }, { NO_COLOR: "1" }) === "always"
 */
export function resolveColorMode(flags: Pick<GlobalFlags, "color">, env: Env): ColorMode {
  if (flags.color === false) return "never";
  if (flags.color !== undefined && flags.color !== "auto") return flags.color === "always" ? "always" : "never";
  return env.NO_COLOR || env.TERM === "dumb" ? "never" : "auto";
}

/** The pager command: $PETSTORE_PAGER, else $PAGER, else `less -FRX`; none with --no-pager or an empty value. */
export function pagerCommand(flags: { pager?: boolean }, env: Env): string | undefined {
  if (flags.pager === false) return undefined;
  const command = (env.PETSTORE_PAGER ?? env.PAGER ?? "less -FRX").trim();
  // `cat` pages nothing: writing directly keeps stdout a terminal's (colour, width) and spares a process.
  return command === "" || command === "cat" ? undefined : command;
}

/** The process environment, or a test's. */
export type Env = Readonly<Record<string, string | undefined>>;

interface Picked<S extends string> {
  value: string;
  source: S;
}

export function globalFlagsOf(command: Command): GlobalFlags {
  return command.optsWithGlobals<GlobalFlags>();
}

/** The profile chosen with --env or PETSTORE_ENV, if any. */
export function resolveEnvName(flags: GlobalFlags, ctx: { env: Env }): string | undefined {
  return chosenProfile(flags, ctx)?.value;
}

function chosenProfile(flags: GlobalFlags, ctx: { env: Env }): Picked<"flag" | "environment"> | undefined {
  const envName = firstSet(["flag", flags.env], ["environment", ctx.env.PETSTORE_ENV]);
  if (envName !== undefined && !ENV_NAME.test(envName.value)) {
    throw new UsageError(`--env must be a name of letters, digits, ".", "_" or "-", got "${envName.value}"`);
  }
  return envName;
}

/**
 * The settings of a client command; the config file's layer is the --env profile, else its top
 * level. A base URL and a key that were not set together are refused (see key-pairing.ts).
 */
export async function resolveSettings(flags: GlobalFlags, ctx: { env: Env; config: ConfigStore }): Promise<Settings> {
  const chosen = chosenProfile(flags, ctx);
  const envName = chosen?.value;
  const profile = await readProfile(ctx.config, envName);
  const fromFile = "config file" as const;
  const baseUrl = firstSet(["flag", flags.baseUrl], ["environment", ctx.env.PETSTORE_BASE_URL], [fromFile, profile.baseUrl]) ?? {
    value: DEFAULT_BASE_URL,
    source: "default" as const,
  };
  const apiKey = firstSet(["flag", flags.apiKey], ["environment", ctx.env.PETSTORE_API_KEY], [fromFile, profile.apiKey]);
  if (apiKey?.value === "") throw new UsageError("--api-key must not be empty; to send no key, leave it out");
  const checkedUrl = checkBaseUrl(baseUrl.value, baseUrl.source);
  const problem = pairingProblem({
    baseUrl: { value: checkedUrl, origin: originOf(baseUrl.source, envName) },
    apiKey: apiKey === undefined ? undefined : originOf(apiKey.source, envName),
    profile: chosen === undefined ? undefined : { name: chosen.value, chosenBy: chosen.source === "flag" ? "--env" : "PETSTORE_ENV" },
  });
  if (problem) throw new UsageError(problem);
  return {
    baseUrl: checkedUrl,
    apiKey: apiKey?.value,
    envName,
    json: flags.json === true,
    timeoutMs: integerFlag("--timeout", flags.timeout, DEFAULT_TIMEOUT_MS, 1, 3_600_000),
    retries: integerFlag("--retries", flags.retries, DEFAULT_RETRIES, 0, MAX_RETRIES),
    maxWaitMs: integerFlag("--max-wait", flags.maxWait, DEFAULT_MAX_WAIT_S, 0, 86_400) * 1000,
    verbose: flags.verbose === true,
    deprecationNotices: ctx.env.PETSTORE_NO_DEPRECATION_NOTICE !== "1" && profile.deprecationNotices !== "off",
    color: resolveColorMode(flags, ctx.env),
    pager: pagerCommand(flags, ctx.env),
    caCert: caCertOf(flags, ctx, profile),
    sources: { baseUrl: baseUrl.source, apiKey: apiKey?.source },
  };
}

/**
 * --ca-cert, PETSTORE_CA_CERT, then the profile's caCert; a relative path in the config file is
 * relative to the file's folder (the command may run anywhere), as kubeconfig's are.
 */
function caCertOf(flags: GlobalFlags, ctx: { env: Env; config: ConfigStore }, profile: Profile): string | undefined {
  const picked = firstSet(["flag", flags.caCert], ["environment", ctx.env.PETSTORE_CA_CERT], ["config file", profile.caCert]);
  if (picked?.value === "") throw new UsageError("--ca-cert must not be empty");
  if (picked?.source === "config file") return resolve(dirname(ctx.config.path), picked.value);
  return picked?.value;
}

/** `serve`'s options: its flags, then PETSTORE_PORT, PETSTORE_HOST, ..., then the defaults (no config-file layer). */
export function resolveServeOptions(flags: ServeFlags, ctx: { env: Env; io?: { isStderrTTY: boolean } }): ServeOptions {
  const { env } = ctx;
  const setting = (flag: string | undefined, variable: string | undefined, fallback: string) =>
    (firstSet(["flag", flag], ["environment", variable]) ?? { value: fallback }).value;
  const port = setting(flags.port, env.PETSTORE_PORT, SERVE_DEFAULTS.port);
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) {
    throw new UsageError(`--port must be an integer from 0 to 65535, got "${port}"`);
  }
  const host = setting(flags.host, env.PETSTORE_HOST, SERVE_DEFAULTS.host);
  if (host.trim() === "") throw new UsageError("--host must not be empty");
  const db = setting(flags.db, env.PETSTORE_DB, SERVE_DEFAULTS.db);
  if (db.trim() === "") throw new UsageError("--db must not be empty");
  checkDb(db);
  const redis = firstSet(["flag", flags.redis], ["environment", env.PETSTORE_REDIS_URL])?.value;
  if (redis !== undefined) checkRedis(redis);
  const adminKey = env.PETSTORE_ADMIN_KEY || undefined;
  if (adminKey !== undefined && adminKey.length < 24) {
    throw new UsageError("PETSTORE_ADMIN_KEY must be at least 24 characters long");
  }
  const options: ServeOptions = {
    port: Number(port),
    host,
    db,
    redis,
    configFile: firstSet(["flag", flags.config], ["environment", env.PETSTORE_SERVE_CONFIG])?.value,
    quiet: flags.quiet === true,
    adminKey,
    ...resolveServeOps(flags, env, ctx.io?.isStderrTTY ?? false),
  };
  const tls = tlsOf(flags, env);
  if (tls) options.tls = tls;
  return options;
}

/** For --verbose: where the base URL and the key came from, which settles most "why this server?" questions. */
export function describeSources(settings: Pick<Settings, "baseUrl" | "envName" | "sources">): string {
  const from = (source: Source) =>
    source === "config file" && settings.envName !== undefined ? `the config file (environment ${settings.envName})` : `the ${source}`;
  const key = settings.sources.apiKey === undefined ? "none" : `from ${from(settings.sources.apiKey)}`;
  return `* base URL ${settings.baseUrl} from ${from(settings.sources.baseUrl)}; API key ${key}`;
}

/**
 * HTTPS for `serve`: --cert and --key name a real certificate (both or neither); --https alone
 * asks for listhen's self-signed one, kept in the state folder for clients (--ca-cert). --https
 * with --cert and --key is the same as those two: the flag turns HTTPS on, the files say which
 * certificate, so nothing contradicts.
 */
function tlsOf(flags: ServeFlags, env: Env): ServeTls | undefined {
  if ((flags.cert === undefined) !== (flags.key === undefined)) {
    throw new UsageError("--cert and --key go together: the certificate and its private key, both PEM files");
  }
  if (flags.cert !== undefined && flags.key !== undefined) {
    if (flags.cert.trim() === "" || flags.key.trim() === "") throw new UsageError("--cert and --key must not be empty");
    return { certFile: flags.cert, keyFile: flags.key };
  }
  return flags.https === true ? { selfSigned: true, certDir: dirname(stateFilePath(env, env.HOME || homedir())) } : undefined;
}

function originOf(source: Exclude<Source, "default">, envName: string | undefined): Exclude<Origin, "default">;
function originOf(source: Source, envName: string | undefined): Origin;
function originOf(source: Source, envName: string | undefined): Origin {
  if (source !== "config file") return source;
  return envName === undefined ? "top level" : "profile";
}

/** The profile named `envName` (the top level when undefined); an unknown name is a usage error listing the known ones. */
export async function readProfile(config: ConfigStore, envName: string | undefined): Promise<Profile> {
  const data = await config.read();
  const profile = profileOf(data, envName);
  if (profile === undefined) {
    const known = Object.keys(data.profiles ?? {});
    const list = known.length > 0 ? `; known: ${known.join(", ")}` : "";
    throw new UsageError(
      `no environment "${envName}" in ${config.path}${list}\n` + `Add one with: petstore config set base-url <url> --env ${envName}`,
    );
  }
  return profile;
}

/**
 * The first layer whose value is set, with where it came from. An empty variable or file value
 * counts as unset (`PETSTORE_BASE_URL= petstore ...`); an empty flag was typed, so it is kept
 * for its check to refuse.
 */
function firstSet<S extends string>(...layers: [S, string | undefined][]): Picked<S> | undefined {
  for (const [source, value] of layers) {
    if (value !== undefined && (value !== "" || source === "flag")) return { value, source };
  }
  return undefined;
}

function checkBaseUrl(value: string, source: Source): string {
  if (!parseHttpUrl(value)) throw new UsageError(`the base URL must be an http or https URL, got "${value}" (from the ${source})`);
  return value.replace(/\/+$/, "");
}
