import { invalidParameter } from "../errors.js";

/**
 * The query parameters of a request, each allowed once; an unknown or repeated parameter is a
 * 400 naming it, so a typo such as `?stauts=sold` is not silently ignored.
 */
export function readQuery<K extends string>(url: URL, allowed: readonly K[]): Partial<Record<K, string>> {
  const values: Partial<Record<K, string>> = {};
  for (const [name, value] of url.searchParams) {
    if (!(allowed as readonly string[]).includes(name)) {
      throw invalidParameter(safeEcho(name), `is not a known query parameter (known: ${allowed.join(", ")})`);
    }
    if (values[name as K] !== undefined) throw invalidParameter(safeEcho(name), "must be given at most once");
    values[name as K] = value;
  }
  return values;
}

const POSITIVE_INTEGER = /^[1-9]\d{0,15}$/;

/** A path or query value that must be a positive safe integer. */
export function parsePositiveInteger(raw: string): number | undefined {
  if (!POSITIVE_INTEGER.test(raw)) return undefined;
  const value = Number(raw);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** Echo user input in messages without letting it grow them without bound. */
export function safeEcho(raw: string): string {
  return raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
}
