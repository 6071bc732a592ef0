import { UsageError } from "../errors.js";

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/**
 * A flag's duration in seconds: a whole number with a unit, s, m, h or d (`90s`, `30d`).
 * The unit is required: a bare `30` could mean seconds or days, and a key's life should not be a guess.
 */
export function durationFlag(name: string, value: string): number {
  const match = /^(\d+)([smhd])$/.exec(value.trim());
  const unit = match?.[2];
  if (!match || unit === undefined) {
    throw new UsageError(`${name} must be a whole number with a unit, s, m, h or d (like 90s, 1h, 30d), not "${value}"`);
  }
  const seconds = Number(match[1]) * (UNIT_SECONDS[unit] ?? 1);
  if (!Number.isSafeInteger(seconds)) throw new UsageError(`${name} is too long: ${value}`);
  return seconds;
}
