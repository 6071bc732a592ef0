// The request `petstore api` builds from its flags, as gh api does: -f strings, -F typed values,
// fields in the query for GET and in a JSON body otherwise, --input for a body of one's own.
import { UsageError } from "../errors.js";
import type { Method } from "../http.js";

export const API_METHODS: readonly Method[] = ["GET", "POST", "PATCH", "DELETE"];

export interface ApiFlags {
  method?: string;
  field: string[];
  rawField: string[];
  header: string[];
  input?: string;
}

export interface ApiRequestPlan {
  method: Method;
  target: string;
  query: Record<string, string> | undefined;
  body: unknown;
  headers: Record<string, string>;
}

/** Everything checked before a request: a bad flag is exit 2 with nothing sent. */
export function planApiRequest(path: string, flags: ApiFlags, input: unknown): ApiRequestPlan {
  const fields: Record<string, unknown> = {};
  for (const pair of flags.rawField) fields[keyOf(pair, "-f")] = valueOf(pair);
  for (const pair of flags.field) fields[keyOf(pair, "-F")] = typedValue(valueOf(pair));
  const hasFields = Object.keys(fields).length > 0;
  // gh's rule: a request with parameters or a body is a POST unless -X says otherwise.
  const method = methodOf(flags.method ?? (hasFields || input !== undefined ? "POST" : "GET"));
  if (input !== undefined && hasFields && method !== "GET") throw new UsageError("--input is the whole body: give it or -f/-F fields, not both");
  const query = method === "GET" && hasFields ? Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)])) : undefined;
  const body = input ?? (method !== "GET" && hasFields ? fields : undefined);
  return { method, target: targetOf(path), query, body, headers: headersOf(flags.header) };
}

function methodOf(value: string): Method {
  const method = value.toUpperCase() as Method;
  if (!API_METHODS.includes(method)) throw new UsageError(`-X must be one of ${API_METHODS.join(", ")} (the API has no other), got ${value}`);
  return method;
}

/** `pets`, `/pets` and `/v1/pets`... as gh: relative to the base URL; a full URL must be on its origin. */
function targetOf(path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  return path.startsWith("/") ? path : `/${path}`;
}

function keyOf(pair: string, flag: string): string {
  const index = pair.indexOf("=");
  if (index <= 0) throw new UsageError(`${flag} takes key=value, got ${JSON.stringify(pair)}`);
  return pair.slice(0, index);
}

function valueOf(pair: string): string {
  return pair.slice(pair.indexOf("=") + 1);
}

/** -F: true, false, null and numbers as JSON; anything else stays a string (gh's rule). */
export function typedValue(value: string): unknown {
  if (value === "true") return true;
  if (value === "false") return false;
  if (value === "null") return null;
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
}

function headersOf(lines: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const index = line.indexOf(":");
    if (index <= 0) throw new UsageError(`-H takes 'Name: value', got ${JSON.stringify(line)}`);
    const name = line.slice(0, index).trim().toLowerCase();
    if (name === "authorization") throw new UsageError("-H Authorization is not sent: the key comes from --api-key, PETSTORE_API_KEY or the config file");
    headers[name] = line.slice(index + 1).trim();
  }
  return headers;
}

/** The --input text as a JSON body; undefined without --input. */
export function parseInput(text: string | undefined, source: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--input ${source}: not JSON (${(error as Error).message})`);
  }
}
