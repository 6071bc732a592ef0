import { describe, expect, it, vi } from "vitest";
import type { KeyLimits } from "../../src/contract/values.js";
import { MemoryRateLimiter } from "../../src/limits/memory-rate-limiter.js";
import type { BanPolicy } from "../../src/limits/plans.js";
import type { Decision } from "../../src/limits/rate-limiter.js";

const NOON = Date.UTC(2025, 5, 10, 12, 0, 0);
const NOON_S = NOON / 1000;
const FREE: KeyLimits = { perMinute: 60, perDay: 1_000 };

function setup(ban: BanPolicy = { threshold: 1, durationSeconds: 900 }, start = NOON) {
  const clock = { t: start };
  const limiter = new MemoryRateLimiter({ now: () => clock.t, ban });
  const take = (n: number, limits: KeyLimits = FREE, subject = "key:a"): Decision[] =>
    Array.from({ length: n }, () => limiter.decide(subject, limits));
  return { clock, limiter, take };
}

const last = <T>(items: T[]): T => items[items.length - 1] as T;

function rejected(decision: Decision) {
  if (decision.allowed) throw new Error("expected a rejection");
  return decision;
}

describe("MemoryRateLimiter windows", () => {
  it("reports both windows, minute first, with remaining after this request", async () => {
    const { limiter } = setup();
    expect(await limiter.consume("key:a", FREE)).toEqual({
      allowed: true,
      windows: [
        { name: "minute", seconds: 60, limit: 60, remaining: 59, resetAt: NOON_S + 60 },
        { name: "day", seconds: 86_400, limit: 1_000, remaining: 999, resetAt: Date.UTC(2025, 5, 11) / 1000 },
      ],
    });
  });

  it("serves exactly the minute limit, then answers rate_limited", () => {
    const { take } = setup();
    const decisions = take(61);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(60);
    expect(decisions[59]?.windows[0]?.remaining).toBe(0);
    expect(last(decisions)).toMatchObject({ allowed: false, reason: "rate_limited", retryAfter: 60 });
  });

  it("resets the minute window exactly at the UTC minute boundary", () => {
    const { clock, take } = setup();
    take(60);
    clock.t = NOON + 59_999;
    expect(take(1)[0]).toMatchObject({ allowed: false, retryAfter: 1 });
    clock.t = NOON + 60_000;
    expect(take(1)[0]).toMatchObject({
      allowed: true,
      windows: [{ remaining: 59, resetAt: NOON_S + 120 }, { remaining: 939 }],
    });
  });

  it("resets the day window exactly at UTC midnight", () => {
    const midnight = Date.UTC(2025, 5, 11);
    const { clock, take } = setup(undefined, midnight - 3_600_000);
    const limits = { perMinute: 1_000, perDay: 5 };
    take(5, limits);
    clock.t = midnight - 1;
    expect(take(1, limits)[0]).toMatchObject({ allowed: false, reason: "rate_limited", retryAfter: 1 });
    clock.t = midnight;
    expect(take(1, limits)[0]).toMatchObject({
      allowed: true,
      windows: [{ remaining: 999 }, { remaining: 4, resetAt: midnight / 1000 + 86_400 }],
    });
  });

  it("does not count 429s against either window", () => {
    const { clock, take } = setup({ threshold: 100, durationSeconds: 900 });
    take(60);
    expect(take(30).every((d) => !d.allowed)).toBe(true);
    clock.t = NOON + 60_000;
    expect(take(1)[0]?.windows.map((w) => w.remaining)).toEqual([59, 939]);
  });

  it("keeps subjects apart and applies the limits given on each call", () => {
    const { take } = setup();
    take(60, FREE, "key:a");
    expect(take(1, FREE, "key:b")[0]?.allowed).toBe(true);
    expect(take(1, FREE, "key:a")[0]?.allowed).toBe(false);
    // An upgrade mid-window: the same counters, measured against the new limits.
    expect(take(1, { perMinute: 300, perDay: 10_000 }, "key:a")[0]).toMatchObject({
      allowed: true,
      windows: [{ limit: 300, remaining: 239 }, { limit: 10_000, remaining: 9_939 }],
    });
  });
});

describe("MemoryRateLimiter retryAfter", () => {
  it.each([
    { at: 250, retryAfter: 60 },
    { at: 30_700, retryAfter: 30 },
    { at: 59_000, retryAfter: 1 },
    { at: 59_999, retryAfter: 1 },
  ])("minute exhausted, at +$at ms: $retryAfter s", ({ at, retryAfter }) => {
    const { clock, take } = setup({ threshold: 100, durationSeconds: 900 });
    clock.t = NOON + at;
    expect(rejected(last(take(61))).retryAfter).toBe(retryAfter);
  });

  it("day exhausted: seconds until midnight, even when the minute also is", () => {
    const { clock, take } = setup({ threshold: 100, durationSeconds: 900 });
    const limits = { perMinute: 3, perDay: 3 };
    take(3, limits);
    const both = rejected(take(1, limits)[0] as Decision);
    expect(both.windows.map((w) => w.remaining)).toEqual([0, 0]);
    expect(both.retryAfter).toBe(12 * 3600);
    clock.t = NOON + 90_500;
    expect(rejected(take(1, limits)[0] as Decision)).toMatchObject({
      retryAfter: 12 * 3600 - 90,
      windows: [{ remaining: 3 }, { remaining: 0 }],
    });
  });
});

describe("MemoryRateLimiter bans", () => {
  it("bans exactly when rejections in the minute exceed threshold × limit", () => {
    const { take } = setup();
    take(60);
    const rejections = take(61);
    expect(rejections.slice(0, 60).every((d) => !d.allowed && d.reason === "rate_limited")).toBe(true);
    expect(last(rejections)).toMatchObject({ allowed: false, reason: "key_banned", retryAfter: 900 });
  });

  it("honours the threshold factor", () => {
    const { take } = setup({ threshold: 2, durationSeconds: 60 });
    const limits = { perMinute: 3, perDay: 1_000 };
    take(3, limits);
    const rejections = take(7, limits);
    expect(rejections.slice(0, 6).map((d) => !d.allowed && d.reason)).toEqual(Array(6).fill("rate_limited"));
    expect(last(rejections)).toMatchObject({ reason: "key_banned", retryAfter: 60 });
  });

  it("bans when rejections in the day exceed threshold × the day limit", () => {
    const { take } = setup();
    const limits = { perMinute: 100, perDay: 2 };
    const decisions = take(5, limits);
    expect(decisions.map((d) => (d.allowed ? "ok" : d.reason))).toEqual([
      "ok",
      "ok",
      "rate_limited",
      "rate_limited",
      "key_banned",
    ]);
  });

  it("answers key_banned with a countdown until the ban ends, then serves again", () => {
    const { clock, take } = setup();
    take(60 + 61);
    const bannedAt = clock.t;
    clock.t = bannedAt + 1_000;
    expect(take(1)[0]).toMatchObject({ reason: "key_banned", retryAfter: 899 });
    clock.t = bannedAt + 450_400;
    expect(take(1)[0]).toMatchObject({ reason: "key_banned", retryAfter: 450 });
    clock.t = bannedAt + 899_999;
    expect(take(1)[0]).toMatchObject({ reason: "key_banned", retryAfter: 1 });
    clock.t = bannedAt + 900_000;
    // Banned requests counted nowhere: the day still shows only the 60 served.
    expect(take(1)[0]).toMatchObject({ allowed: true, windows: [{ remaining: 59 }, { remaining: 939 }] });
  });

  it("bans only the offending subject", () => {
    const { take } = setup();
    take(121, FREE, "ip:10.0.0.1");
    expect(take(1, FREE, "ip:10.0.0.1")[0]).toMatchObject({ reason: "key_banned" });
    expect(take(1, FREE, "ip:10.0.0.2")[0]?.allowed).toBe(true);
  });
});

describe("MemoryRateLimiter exactness", () => {
  it("500 concurrent consume calls with 137 left allow exactly 137", async () => {
    const { limiter } = setup({ threshold: 1_000, durationSeconds: 900 });
    const limits = { perMinute: 200, perDay: 10_000 };
    for (let i = 0; i < 63; i++) await limiter.consume("key:a", limits);
    const decisions = await Promise.all(Array.from({ length: 500 }, () => limiter.consume("key:a", limits)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(137);
    expect(decisions.slice(137).every((d) => !d.allowed)).toBe(true);
  });
});

describe("MemoryRateLimiter memory", () => {
  it("forgets subjects whose day has ended once a new UTC day starts, after the request that noticed it", async () => {
    const { clock, limiter, take } = setup();
    for (let i = 0; i < 100; i++) take(1, FREE, `ip:10.0.0.${i}`);
    expect(limiter.size).toBe(100);
    clock.t = Date.UTC(2025, 5, 11, 0, 0, 1);
    take(1, FREE, "ip:10.0.1.1");
    expect(limiter.size).toBe(101);
    await vi.waitFor(() => expect(limiter.size).toBe(1));
  });

  it("keeps a banned subject past midnight until its ban ends", async () => {
    const { clock, limiter, take } = setup(undefined, Date.UTC(2025, 5, 10, 23, 59));
    take(121);
    clock.t = Date.UTC(2025, 5, 11, 0, 5);
    take(1, FREE, "ip:other");
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(limiter.size).toBe(2);
    expect(take(1)[0]).toMatchObject({ reason: "key_banned", retryAfter: 9 * 60 });
  });

  it("works without persistence: flush and close resolve", async () => {
    const { limiter, take } = setup();
    take(3);
    await expect(limiter.flush()).resolves.toBeUndefined();
    await expect(limiter.close()).resolves.toBeUndefined();
  });
});
