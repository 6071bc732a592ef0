// Flag and argument checks shared by the verbs. Each throws UsageError (exit 2) before any request.
import { characterCount } from "../../contract/values.js";
import { UsageError } from "../errors.js";

/** Parses an integer flag in [min, max]; absent means the fallback. */
export function integerFlag(name: string, value: string | undefined, fallback: number, min: number, max: number): number;
export function integerFlag(name: string, value: string | undefined, fallback: undefined, min: number, max: number): number | undefined;
export function integerFlag(
  name: string,
  value: string | undefined,
  fallback: number | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
  }
  return Number(value);
}

/** A record id: a positive integer (int64 within JavaScript's safe range). */
export function idValue(name: string, value: string): number {
  refuseSecret(name, value);
  return integerFlag(name, value, undefined, 1, Number.MAX_SAFE_INTEGER) as number;
}

// The shape of an API key (`ps_` and key characters), as the server's log redaction knows it.
const KEY_SHAPED = /ps_[0-9A-Za-z_]{8,}/;

/**
 * Refuses an argument that looks like an API key where an id is expected: it would go into a
 * URL (and so into proxy and server logs). The message does not repeat it, so it stays off the
 * screen and out of CI logs too.
 */
export function refuseSecret(name: string, value: string, hint = "ids are what `petstore pets list` shows"): void {
  if (KEY_SHAPED.test(value)) throw new UsageError(`${name} looks like an API key (ps_…), not an id, so it was not sent; ${hint}`);
}

/**
 * A text flag that must not be blank and has a maximum length, counted as the server counts it
 * (code points: an emoji is one character), so the client never refuses what the server accepts.
 */
export function textFlag(name: string, value: string | undefined, maxLength: number): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === "") throw new UsageError(`${name} must not be empty`);
  if (characterCount(value) > maxLength) throw new UsageError(`${name} must be at most ${maxLength} characters`);
  return value;
}


/**
 * An ETag for If-Match. The shell eats the quotes of `--if-match "pet-3-2"`, so a bare value gets
 * them back: the server compares quoted ETags (RFC 9110), and `pet-3-2` alone would never match.
 */
export function ifMatchValue(value: string): string {
  const trimmed = value.trim();
  if (trimmed === "" || /[\s,]/.test(trimmed.replace(/^W\//, "").replace(/^"(.*)"$/, "$1"))) {
    throw new UsageError(`--if-match takes one ETag, as \`pets get <id> --verbose\` shows it ("pet-3-2"), got ${JSON.stringify(value)}`);
  }
  if (trimmed === "*" || /^(W\/)?".*"$/.test(trimmed)) return trimmed;
  return `"${trimmed}"`;
}
