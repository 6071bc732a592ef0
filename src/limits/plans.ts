// The request limits of each plan, and the resolution of one caller's effective limits.
// Free of the schema library: the config file loader (config.ts) is the only zod user here.
import type { KeyLimits, Plan } from "../contract/values.js";

/** Plans with numbers of their own; enterprise keys always carry their own limits. */
export type FixedPlan = Exclude<Plan, "enterprise">;

/** Who is being limited: a key's plan, an admin key, or a client IP without a valid key. */
export type LimitClass = Plan | "admin" | "anonymous";

export interface BanPolicy {
  /** Banned when, inside one window, rejections exceed threshold × that window's limit. */
  threshold: number;
  durationSeconds: number;
}

export interface LimitsConfig {
  plans: Record<FixedPlan, KeyLimits>;
  anonymous: KeyLimits;
  admin: KeyLimits;
  ban: BanPolicy;
}

/** The numbers of the spec (section Limits), used when no config file overrides them. */
const PLAN_LIMITS: Readonly<Record<FixedPlan, Readonly<KeyLimits>>> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
};

const ADMIN_LIMITS: Readonly<KeyLimits> = { perMinute: 100_000, perDay: 100_000_000 };

export const BAN_POLICY: Readonly<BanPolicy> = { threshold: 1, durationSeconds: 900 };

/** A fresh copy of the defaults: anonymous callers get the free plan's numbers. */
export function defaultLimitsConfig(): LimitsConfig {
  return {
    plans: {
      free: { ...PLAN_LIMITS.free },
      pro: { ...PLAN_LIMITS.pro },
      business: { ...PLAN_LIMITS.business },
    },
    anonymous: { ...PLAN_LIMITS.free },
    admin: { ...ADMIN_LIMITS },
    ban: { ...BAN_POLICY },
  };
}

/**
 * The effective limits of one caller. A key's own limits win when it has them (enterprise and
 * admin keys); otherwise the plan's configured numbers apply.
 *
 * @example limitsFor("pro", null, config) // { perMinute: 300, perDay: 10000 }
 * @example limitsFor(key.admin ? "admin" : key.plan, key.limits, config)
 */
export function limitsFor(plan: LimitClass, own: KeyLimits | null, config: LimitsConfig): KeyLimits {
  if (own) return own;
  switch (plan) {
    case "admin":
      return config.admin;
    case "anonymous":
      return config.anonymous;
    // An enterprise key without its own numbers is a data error; never grant it more than free.
    case "enterprise":
      return config.plans.free;
    default:
      return config.plans[plan];
  }
}
