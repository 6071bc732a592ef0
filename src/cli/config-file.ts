import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** What one target (the default, or a named environment) supplies. */
export interface Profile {
  baseUrl?: string;
  apiKey?: string;
}

/**
 * The config file: the top-level values are used when no environment is chosen, and
 * `profiles` holds named ones (`production`, `staging`, any name) picked with --env.
 * @example {"baseUrl":"http://127.0.0.1:3000/v1","profiles":{"staging":{"baseUrl":"https://staging.example.com/v1","apiKey":"ps_..."}}}
 */
export interface ConfigData extends Profile {
  profiles?: Record<string, Profile>;
}

/** The keys `config set|get` accept, as typed on the command line, and their field in the file. */
export const CONFIG_KEYS = { "base-url": "baseUrl", "api-key": "apiKey" } as const;
export type ConfigKey = keyof typeof CONFIG_KEYS;

/** $PETSTORE_CONFIG, else $XDG_CONFIG_HOME/petstore/config.json, else ~/.config/petstore/config.json. */
export function configFilePath(env: { PETSTORE_CONFIG?: string; XDG_CONFIG_HOME?: string }, home: string): string {
  if (env.PETSTORE_CONFIG) return env.PETSTORE_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(home, ".config");
  return join(base, "petstore", "config.json");
}

/** Reads the config file; a missing file is an empty config, a malformed one an error naming the file. */
export async function readConfigFile(path: string): Promise<ConfigData> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new Error(`cannot read the config file ${path}: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`the config file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  const problem = checkConfig(data);
  if (problem) throw new Error(`the config file ${path} is malformed: ${problem}`);
  return data as ConfigData;
}

/** Writes the whole file atomically with mode 0600 (it holds API keys), creating its folder. */
export async function writeConfigFile(path: string, data: ConfigData): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}

export function profileOf(data: ConfigData, envName: string | undefined): Profile | undefined {
  if (envName === undefined) return { baseUrl: data.baseUrl, apiKey: data.apiKey };
  return data.profiles?.[envName];
}

/** A copy of `data` with one value set, in the named environment or at the top level. */
export function withValue(data: ConfigData, envName: string | undefined, key: ConfigKey, value: string): ConfigData {
  const field = CONFIG_KEYS[key];
  if (envName === undefined) return { ...data, [field]: value };
  const profiles = { ...data.profiles, [envName]: { ...data.profiles?.[envName], [field]: value } };
  return { ...data, profiles };
}

/** Shows enough of a key to recognise it: `ps_ab…wxyz`. */
export function maskKey(key: string): string {
  if (key.length < 12) return "****";
  return `${key.slice(0, 5)}…${key.slice(-4)}`;
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
