import { describe, expect, it } from "vitest";
import { rateLimitHeaders } from "../../src/limits/headers.js";
import { MemoryRateLimiter } from "../../src/limits/memory-rate-limiter.js";
import type { Decision, WindowState } from "../../src/limits/rate-limiter.js";

// 12:00:18 UTC: the minute resets in 42 s, the day in 43,182 s.
const NOW = Date.UTC(2025, 5, 10, 12, 0, 18);
const MINUTE_RESET = Date.UTC(2025, 5, 10, 12, 1) / 1000;
const DAY_RESET = Date.UTC(2025, 5, 11) / 1000;

function windows(minute: [limit: number, remaining: number], day: [limit: number, remaining: number]): WindowState[] {
  return [
    { name: "minute", seconds: 60, limit: minute[0], remaining: minute[1], resetAt: MINUTE_RESET },
    { name: "day", seconds: 86_400, limit: day[0], remaining: day[1], resetAt: DAY_RESET },
  ];
}

describe("rateLimitHeaders", () => {
  it("an allowed request: the window closest to exhaustion and both IETF fields", () => {
    const decision: Decision = { allowed: true, windows: windows([60, 59], [1_000, 999]) };
    expect(rateLimitHeaders(decision, NOW)).toEqual([
      ["x-ratelimit-limit", "60"],
      ["x-ratelimit-remaining", "59"],
      ["x-ratelimit-reset", String(MINUTE_RESET)],
      ["ratelimit-policy", '"minute";q=60;w=60, "day";q=1000;w=86400'],
      ["ratelimit", '"minute";r=59;t=42, "day";r=999;t=43182'],
    ]);
  });

  it("the day window when it has fewer left", () => {
    const decision: Decision = { allowed: true, windows: windows([60, 50], [1_000, 7]) };
    expect(rateLimitHeaders(decision, NOW).slice(0, 3)).toEqual([
      ["x-ratelimit-limit", "1000"],
      ["x-ratelimit-remaining", "7"],
      ["x-ratelimit-reset", String(DAY_RESET)],
    ]);
  });

  it("the minute window on a tie", () => {
    const decision: Decision = { allowed: true, windows: windows([100, 40], [100, 40]) };
    expect(rateLimitHeaders(decision, NOW).slice(0, 3)).toEqual([
      ["x-ratelimit-limit", "100"],
      ["x-ratelimit-remaining", "40"],
      ["x-ratelimit-reset", String(MINUTE_RESET)],
    ]);
  });

  it("a 429: the exhausted window with remaining 0, and Retry-After", () => {
    const decision: Decision = {
      allowed: false,
      reason: "rate_limited",
      retryAfter: 42,
      windows: windows([60, 0], [1_000, 940]),
    };
    expect(Object.fromEntries(rateLimitHeaders(decision, NOW))).toEqual({
      "x-ratelimit-limit": "60",
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": String(MINUTE_RESET),
      "ratelimit-policy": '"minute";q=60;w=60, "day";q=1000;w=86400',
      ratelimit: '"minute";r=0;t=42, "day";r=940;t=43182',
      "retry-after": "42",
    });
  });

  it("t rounds up to whole seconds and never goes below 0", () => {
    const decision: Decision = { allowed: true, windows: windows([60, 1], [1_000, 1]) };
    const rateLimit = (now: number) => Object.fromEntries(rateLimitHeaders(decision, now))["ratelimit"];
    expect(rateLimit(MINUTE_RESET * 1000 - 1)).toMatch(/^"minute";r=1;t=1, /);
    expect(rateLimit(MINUTE_RESET * 1000 - 1_001)).toMatch(/^"minute";r=1;t=2, /);
    expect(rateLimit(MINUTE_RESET * 1000 + 5_000)).toMatch(/^"minute";r=1;t=0, /);
  });

  it("agrees with the limiter's decisions end to end", () => {
    const limiter = new MemoryRateLimiter({ now: () => NOW });
    const limits = { perMinute: 2, perDay: 1_000 };
    limiter.decide("key:a", limits);
    limiter.decide("key:a", limits);
    const headers = Object.fromEntries(rateLimitHeaders(limiter.decide("key:a", limits), NOW));
    expect(headers).toMatchObject({ "x-ratelimit-remaining": "0", "retry-after": "42" });
    expect(headers["ratelimit"]).toBe('"minute";r=0;t=42, "day";r=998;t=43182');
  });

  it("keys with other limits, one after another, each get their own policy", () => {
    const policy = (minute: number, day: number) =>
      Object.fromEntries(rateLimitHeaders({ allowed: true, windows: windows([minute, 1], [day, 1]) }, NOW))["ratelimit-policy"];
    for (let i = 0; i < 2; i++) {
      expect(policy(60, 1_000)).toBe('"minute";q=60;w=60, "day";q=1000;w=86400');
      expect(policy(60, 1_000)).toBe('"minute";q=60;w=60, "day";q=1000;w=86400');
      expect(policy(600, 50_000)).toBe('"minute";q=600;w=60, "day";q=50000;w=86400');
      expect(policy(60, 50_000)).toBe('"minute";q=60;w=60, "day";q=50000;w=86400');
    }
    const minuteOnly = rateLimitHeaders({ allowed: true, windows: windows([5, 1], [9, 1]).slice(0, 1) }, NOW);
    expect(Object.fromEntries(minuteOnly)["ratelimit-policy"]).toBe('"minute";q=5;w=60');
  });
});
