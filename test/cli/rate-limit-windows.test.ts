// The quota windows an answer's headers tell: RateLimit with RateLimit-Policy, else X-RateLimit-*.
import { describe, expect, it } from "vitest";
import { quotaWindows, tightest } from "../../src/cli/internal/rate-limit-windows.js";

const NOW = 1_700_000_000_500;

describe("quotaWindows", () => {
  it("names each RateLimit window with its quota from RateLimit-Policy, resets on whole seconds", () => {
    const headers = { ratelimit: '"minute";r=5;t=30, "day";r=2;t=100', "ratelimit-policy": '"minute";q=60;w=60, "day";q=1000;w=86400' };
    expect(quotaWindows(headers, NOW)).toEqual([
      { name: "minute", limit: 60, remaining: 5, resetAt: 1_700_000_030_000 },
      { name: "day", limit: 1000, remaining: 2, resetAt: 1_700_000_100_000 },
    ]);
    expect(tightest(quotaWindows(headers, NOW))?.name).toBe("day");
  });

  it("falls back to X-RateLimit-* as one unnamed window, and finds none without headers", () => {
    expect(quotaWindows({ "x-ratelimit-limit": "60", "x-ratelimit-remaining": "7", "x-ratelimit-reset": "1700000000" }, 0)).toEqual([
      { name: undefined, limit: 60, remaining: 7, resetAt: 1_700_000_000_000 },
    ]);
    expect(quotaWindows({}, 0)).toEqual([]);
    expect(tightest([])).toBeUndefined();
  });

  it("skips a broken entry, and a number too large to be exact", () => {
    expect(quotaWindows({ ratelimit: `"minute";r=x;t=3, "day";r=1;t=${"9".repeat(30)}` }, 0)).toEqual([]);
  });
});
