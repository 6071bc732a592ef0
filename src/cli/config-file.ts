// node:fs/promises through fs.promises, read when first used: loading it at start-up costs
// node:stream and node:readline (the CLI bundle evaluates every import when it starts).
import { promises as fs } from "node:fs";
import { dirname, join } from "node:path";
import { JsonFileError, readJsonFile, writeFileAtomic } from "../support/json-file.js";

/** What one target (the default, or a named environment) supplies. */
export interface Profile {
  baseUrl?: string;
  apiKey?: string;
  /** "off" silences the deprecation notices of deprecated calls. */
  deprecationNotices?: string;
  /** A PEM file of certificates to trust (a `serve --https`'s own), as --ca-cert. */
  caCert?: string;
}

/**
 * The config file: the top-level values are used when no environment is chosen, and
 * `profiles` holds named ones (`production`, `staging`, any name) picked with --env.
 * @example {"baseUrl":"http://127.0.0.1:3000/v1","profiles":{"staging":{"baseUrl":"https://staging.example.com/v1","apiKey":"ps_..."}}}
 */
export interface ConfigData extends Profile {
  profiles?: Record<string, Profile>;
}

/** Where the config lives, read and written whole; the process's is a file, a test's may be anything. */
export interface ConfigStore {
  /** Where it is, for messages ("no environment staging in <path>"). */
  readonly path: string;
  /** A missing file is an empty config; a malformed one an error naming the file. */
  read(): Promise<ConfigData>;
  write(data: ConfigData): Promise<void>;
}

/** The keys `config set|get` accept, as typed on the command line, and their field in the file. */
export const CONFIG_KEYS = {
  "base-url": "baseUrl",
  "api-key": "apiKey",
  "deprecation-notices": "deprecationNotices",
  "ca-cert": "caCert",
} as const;
export type ConfigKey = keyof typeof CONFIG_KEYS;

/** $PETSTORE_CONFIG, else $XDG_CONFIG_HOME/petstore/config.json, else ~/.config/petstore/config.json. */
export function configFilePath(env: { PETSTORE_CONFIG?: string; XDG_CONFIG_HOME?: string }, home: string): string {
  if (env.PETSTORE_CONFIG) return env.PETSTORE_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(home, ".config");
  return join(base, "petstore", "config.json");
}

/** An API key as the server makes them: `ps_` and 40 base62 characters. */
export const API_KEY_SHAPE = /^ps_[0-9A-Za-z]{40}$/;

/**
 * The config file at `path`: written whole and atomically with mode 0600 (it holds API keys), its folder 0700.
 * A field it does not know (a typo such as `apikey`) is kept but named once through `warn`.
 */
export function fileConfigStore(path: string, warn: (message: string) => void = () => {}): ConfigStore {
  const warned = new Set<string>();
  const parse = (data: unknown): ConfigData => {
    const config = parseConfig(data);
    for (const field of unknownFields(config)) {
      if (warned.has(field)) continue;
      warned.add(field);
      warn(`the config file ${path} has an unknown field "${field}"; it is ignored (known: ${[...KNOWN_FIELDS].join(", ")})`);
    }
    return config;
  };
  return {
    path,
    async read() {
      try {
        return (await readJsonFile(path, parse)) ?? {};
      } catch (error) {
        if (error instanceof JsonFileError) throw new Error(`the config file ${path} ${phrase(error.reason)}`);
        throw error;
      }
    },
    async write(data) {
      await fs.mkdir(dirname(path), { recursive: true, mode: 0o700 });
      await writeFileAtomic(path, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    },
  };
}

export function profileOf(data: ConfigData, envName: string | undefined): Profile | undefined {
  if (envName === undefined) {
    return { baseUrl: data.baseUrl, apiKey: data.apiKey, deprecationNotices: data.deprecationNotices, caCert: data.caCert };
  }
  return data.profiles?.[envName];
}

/** A copy of `data` with one value set, in the named environment or at the top level. */
export function withValue(data: ConfigData, envName: string | undefined, key: ConfigKey, value: string): ConfigData {
  const field = CONFIG_KEYS[key];
  if (envName === undefined) return { ...data, [field]: value };
  const profiles = { ...data.profiles, [envName]: { ...data.profiles?.[envName], [field]: value } };
  return { ...data, profiles };
}

/** A copy of `data` without one value; a profile left empty is removed with it. */
export function withoutValue(data: ConfigData, envName: string | undefined, key: ConfigKey): ConfigData {
  const field = CONFIG_KEYS[key];
  if (envName === undefined) {
    const { [field]: _removed, ...rest } = data;
    return rest;
  }
  const { [field]: _gone, ...profile } = data.profiles?.[envName] ?? {};
  const { [envName]: _old, ...others } = data.profiles ?? {};
  const profiles = Object.keys(profile).length > 0 ? { ...others, [envName]: profile } : others;
  const { profiles: _all, ...top } = data;
  return Object.keys(profiles).length > 0 ? { ...top, profiles } : top;
}

/** Shows enough of a key to recognise it: `ps_ab…wxyz`. */
export function maskKey(key: string): string {
  if (key.length < 12) return "****";
  return `${key.slice(0, 5)}…${key.slice(-4)}`;
}

// readJsonFile's reasons ("not valid JSON (…)", "cannot be read (EACCES)", ours) as the end of a sentence.
function phrase(reason: string): string {
  return reason.startsWith("not valid JSON") ? `is ${reason}` : reason;
}

function parseConfig(data: unknown): ConfigData {
  const problem = checkConfig(data);
  if (problem) throw new Error(`is malformed: ${problem}`);
  return data as ConfigData;
}

function checkConfig(data: unknown): string | undefined {
  if (!isObject(data)) return "expected a JSON object";
  const top = checkProfile(data, "");
  if (top) return top;
  if (data.profiles === undefined) return undefined;
  if (!isObject(data.profiles)) return `"profiles" must be an object`;
  for (const [name, profile] of Object.entries(data.profiles)) {
    if (!isObject(profile)) return `profiles.${name} must be an object`;
    const problem = checkProfile(profile, `profiles.${name}.`);
    if (problem) return problem;
  }
  return undefined;
}

function checkProfile(profile: Record<string, unknown>, where: string): string | undefined {
  for (const field of Object.values(CONFIG_KEYS)) {
    if (profile[field] !== undefined && typeof profile[field] !== "string") return `${where}${field} must be a string`;
  }
  return undefined;
}

const PROFILE_FIELDS = new Set<string>(Object.values(CONFIG_KEYS));
const KNOWN_FIELDS = new Set<string>([...PROFILE_FIELDS, "profiles"]);

/** `apikey`, `profiles.staging.baseURL`: the paths of fields this version does not read. */
function unknownFields(data: ConfigData): string[] {
  const unknown = Object.keys(data).filter((field) => !KNOWN_FIELDS.has(field));
  for (const [name, profile] of Object.entries(data.profiles ?? {})) {
    unknown.push(...Object.keys(profile).filter((field) => !PROFILE_FIELDS.has(field)).map((field) => `profiles.${name}.${field}`));
  }
  return unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
