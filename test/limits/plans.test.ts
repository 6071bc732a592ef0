import { describe, expect, it } from "vitest";
import { defaultLimitsConfig, limitsFor, type LimitClass } from "../../src/limits/plans.js";

describe("limitsFor with the default config", () => {
  const config = defaultLimitsConfig();

  it.each([
    { plan: "free", perMinute: 60, perDay: 1_000 },
    { plan: "pro", perMinute: 300, perDay: 10_000 },
    { plan: "business", perMinute: 1_000, perDay: 100_000 },
    { plan: "admin", perMinute: 100_000, perDay: 100_000_000 },
    { plan: "anonymous", perMinute: 60, perDay: 1_000 },
  ] satisfies Array<{ plan: LimitClass; perMinute: number; perDay: number }>)(
    "$plan: $perMinute/min, $perDay/day",
    ({ plan, perMinute, perDay }) => {
      expect(limitsFor(plan, null, config)).toEqual({ perMinute, perDay });
    },
  );

  it("enterprise: the key's own numbers", () => {
    expect(limitsFor("enterprise", { perMinute: 5_000, perDay: 2_000_000 }, config)).toEqual({
      perMinute: 5_000,
      perDay: 2_000_000,
    });
  });

  it("enterprise without own numbers never gets more than free", () => {
    expect(limitsFor("enterprise", null, config)).toEqual({ perMinute: 60, perDay: 1_000 });
  });

  it("an admin key's own numbers win over the admin default", () => {
    expect(limitsFor("admin", { perMinute: 7, perDay: 70 }, config)).toEqual({ perMinute: 7, perDay: 70 });
  });
});

describe("defaultLimitsConfig", () => {
  it("bans above 1 × the limit for 900 seconds", () => {
    expect(defaultLimitsConfig().ban).toEqual({ threshold: 1, durationSeconds: 900 });
  });

  it("returns a fresh copy each time", () => {
    const first = defaultLimitsConfig();
    first.plans.free.perMinute = 1;
    first.anonymous.perDay = 1;
    expect(defaultLimitsConfig().plans.free.perMinute).toBe(60);
    expect(defaultLimitsConfig().anonymous.perDay).toBe(1_000);
  });
});
