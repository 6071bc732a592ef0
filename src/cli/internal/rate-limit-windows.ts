// The key's quota windows as an answer's headers tell them: `RateLimit` (remaining and seconds to
// the reset, relative, so no clock skew) with `RateLimit-Policy` (each window's quota), else the
// spec's X-RateLimit-* trio (one window, unnamed). Read by the import's pacer and by `status`.
import type { ResponseHeaders } from "../http.js";

export interface QuotaWindow {
  /** "minute", "day"... as the server names it; undefined from X-RateLimit-* alone. */
  name: string | undefined;
  /** The window's quota, when the answer says it. */
  limit: number | undefined;
  remaining: number;
  /** Unix ms at which the window starts afresh. */
  resetAt: number;
}

/** `RateLimit: "minute";r=59;t=42, "day";r=999;t=50000` -> both windows; else the X-RateLimit-* window. */
export function quotaWindows(headers: ResponseHeaders, nowMs: number): QuotaWindow[] {
  const quotas = policyQuotas(headers["ratelimit-policy"]);
  const windows: QuotaWindow[] = [];
  for (const entry of splitList(headers["ratelimit"])) {
    const r = parameter(entry, "r");
    const t = parameter(entry, "t");
    if (r === undefined || t === undefined) continue;
    const name = itemName(entry);
    // `t` is whole seconds rounded up: the reset is the whole second it lands in.
    const resetAt = Math.floor((nowMs + t * 1000) / 1000) * 1000;
    windows.push({ name, limit: name === undefined ? undefined : quotas.get(name), remaining: r, resetAt });
  }
  if (windows.length > 0) return windows;
  const remaining = exactInteger(headers["x-ratelimit-remaining"]);
  const reset = exactInteger(headers["x-ratelimit-reset"]);
  if (remaining === undefined || reset === undefined) return [];
  return [{ name: undefined, limit: exactInteger(headers["x-ratelimit-limit"]), remaining, resetAt: reset * 1000 }];
}

/** The window with the fewest requests left (the earlier one on a tie), if any. */
export function tightest(windows: readonly QuotaWindow[]): QuotaWindow | undefined {
  let best: QuotaWindow | undefined;
  for (const window of windows) if (best === undefined || window.remaining < best.remaining) best = window;
  return best;
}

/** `"minute";q=60;w=60, "day";q=1000;w=86400` -> minute 60, day 1000. */
function policyQuotas(value: string | undefined): Map<string, number> {
  const quotas = new Map<string, number>();
  for (const entry of splitList(value)) {
    const name = itemName(entry);
    const q = parameter(entry, "q");
    if (name !== undefined && q !== undefined) quotas.set(name, q);
  }
  return quotas;
}

function splitList(value: string | undefined): string[] {
  return (value ?? "").split(",").map((entry) => entry.trim()).filter((entry) => entry !== "");
}

/** The item of a structured-field list member: a quoted string or a token, before its parameters. */
function itemName(entry: string): string | undefined {
  return /^"([^"]*)"/.exec(entry)?.[1] ?? /^([A-Za-z*][\w.:/*-]*)/.exec(entry)?.[1];
}

function parameter(entry: string, name: string): number | undefined {
  return exactInteger(new RegExp(`;\\s*${name}=(\\d+)`).exec(entry)?.[1]);
}

/** Digits that read as an exact number of seconds or requests (below 2^53 / 1000); a broken header is no window. */
function exactInteger(digits: string | undefined): number | undefined {
  if (digits === undefined || !/^\d+$/.test(digits.trim())) return undefined;
  const value = Number(digits);
  return Number.isSafeInteger(value * 1000) ? value : undefined;
}
