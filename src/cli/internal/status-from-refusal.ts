// `petstore status` when GET /keys/current itself is refused for quota (429): the status is most
// needed then, so it is read from the refusal's own headers (RateLimit, RateLimit-Policy,
// Retry-After) rather than reported as a failure. The server says nothing more about the key while
// its quota is spent, so the key is shown by its prefix and its plan judged by its limits.
import { KEY_PREFIX_LENGTH } from "../../contract/constants.js";
import type { ApiError } from "../errors.js";
import type { ResponseHeaders } from "../http.js";
import { quotaWindows, type QuotaWindow } from "./rate-limit-windows.js";

export interface UsageWindow {
  limit: number;
  remaining: number;
  resetAt: string;
}

export interface Usage {
  minute: UsageWindow;
  day: UsageWindow;
  bannedUntil: string | null;
}

/** The key as the client knows it without the server's word: its prefix, and the plan its limits match. */
export interface KeySeen {
  prefix: string;
  /** The spec's plan whose limits these are; null when they match none (an enterprise key, a server's own numbers). */
  plan: string | null;
  limits: { perMinute: number; perDay: number };
}

export interface Refusal {
  key: KeySeen;
  usage: Usage;
  refused: { code: string; retryAfter: number | null };
}

/** The spec's plans (section Limits). A server may configure other numbers: the plan is then unknown. */
const SPEC_PLANS: readonly [plan: string, perMinute: number, perDay: number][] = [
  ["free", 60, 1_000],
  ["pro", 300, 10_000],
  ["business", 1_000, 100_000],
];

/** What a 429 to GET /keys/current says of the key; undefined when its headers lack the two windows. */
export function statusFromRefusal(error: ApiError, headers: ResponseHeaders, apiKey: string, nowMs: number): Refusal | undefined {
  const windows = quotaWindows(headers, nowMs);
  const minute = usageWindow(windows.find((window) => window.name === "minute"));
  const day = usageWindow(windows.find((window) => window.name === "day"));
  if (minute === undefined || day === undefined) return undefined;
  const retryAfter = error.retryAfter ?? null;
  const banned = error.body.code === "key_banned" && retryAfter !== null;
  const limits = { perMinute: minute.limit, perDay: day.limit };
  return {
    key: { prefix: apiKey.slice(0, KEY_PREFIX_LENGTH), plan: planOf(limits), limits },
    usage: { minute, day, bannedUntil: banned ? new Date(nowMs + retryAfter * 1000).toISOString() : null },
    refused: { code: error.body.code, retryAfter },
  };
}

function usageWindow(window: QuotaWindow | undefined): UsageWindow | undefined {
  if (window?.limit === undefined) return undefined;
  return { limit: window.limit, remaining: window.remaining, resetAt: new Date(window.resetAt).toISOString() };
}

function planOf(limits: KeySeen["limits"]): string | null {
  return SPEC_PLANS.find(([, perMinute, perDay]) => perMinute === limits.perMinute && perDay === limits.perDay)?.[0] ?? null;
}
