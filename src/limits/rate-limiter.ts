import type { KeyLimits } from "../contract/values.js";

export type WindowName = "minute" | "day";

export interface WindowState {
  name: WindowName;
  /** Window length in seconds: 60 or 86400. */
  seconds: number;
  limit: number;
  /** Requests left in this window after the current one. */
  remaining: number;
  /** Unix seconds at which this window resets (UTC-aligned). */
  resetAt: number;
}

export type Decision =
  | { allowed: true; windows: WindowState[] }
  | {
      allowed: false;
      reason: "rate_limited" | "key_banned";
      /** Whole seconds (>= 1) until the request may be retried. */
      retryAfter: number;
      windows: WindowState[];
    };

/** A subject's standing, read without counting anything. */
export interface Usage {
  /** Both windows, minute first; `remaining` is what the next requests may still use. */
  windows: WindowState[];
  /** Unix ms until which the subject is banned, or null. */
  bannedUntil: number | null;
}

/**
 * Counts requests per subject (a key id or a client IP) in two fixed UTC windows.
 * Async so that Redis can back it; the memory engine decides synchronously, which makes
 * it exact under concurrency.
 */
export interface RateLimiter {
  consume(subject: string, limits: KeyLimits): Promise<Decision>;
  /** consume() without the promise, for a limiter that decides in memory (the request path then awaits nothing). */
  consumeSync?(subject: string, limits: KeyLimits): Decision;
  /** The subject's usage now, without consuming from it (GET /v1/keys/current reports it). */
  peek(subject: string, limits: KeyLimits): Promise<Usage>;
  close(): Promise<void>;
}
