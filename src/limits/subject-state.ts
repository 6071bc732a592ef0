// One subject's counters in two fixed UTC windows, as plain numbers: this is the hot path.
import type { KeyLimits } from "../contract/values.js";
import type { SubjectRow } from "./persister.js";
import type { Usage, WindowState } from "./rate-limiter.js";

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

export interface SubjectState {
  /** floor(ms / MINUTE_MS) of the window the minute counters belong to. */
  minute: number;
  minuteServed: number;
  minuteRejected: number;
  /** floor(ms / DAY_MS) of the window the day counters belong to. */
  day: number;
  dayServed: number;
  dayRejected: number;
  /** ms since the epoch; 0 when never banned. */
  bannedUntil: number;
}

export function newState(minute: number, day: number): SubjectState {
  return { minute, minuteServed: 0, minuteRejected: 0, day, dayServed: 0, dayRejected: 0, bannedUntil: 0 };
}

/** Moves the counters into the current windows, zeroing those that have ended. */
export function roll(state: SubjectState, minute: number, day: number): void {
  if (state.minute !== minute) {
    state.minute = minute;
    state.minuteServed = 0;
    state.minuteRejected = 0;
  }
  if (state.day !== day) {
    state.day = day;
    state.dayServed = 0;
    state.dayRejected = 0;
  }
}

/** Both windows as Decision reports them, minute first; remaining never goes below 0. */
export function windowsOf(state: SubjectState, limits: KeyLimits): WindowState[] {
  return windowsAt(state.minute, state.minuteServed, state.day, state.dayServed, limits);
}

/** windowsOf from the four numbers it reads, for counters that are not kept as objects. */
export function windowsAt(minute: number, minuteServed: number, day: number, dayServed: number, limits: KeyLimits): WindowState[] {
  return [
    {
      name: "minute",
      seconds: 60,
      limit: limits.perMinute,
      remaining: Math.max(0, limits.perMinute - minuteServed),
      resetAt: (minute + 1) * 60,
    },
    {
      name: "day",
      seconds: 86_400,
      limit: limits.perDay,
      remaining: Math.max(0, limits.perDay - dayServed),
      resetAt: (day + 1) * 86_400,
    },
  ];
}

/** The usage a peek reports: the state as it stands at `now`, ended windows at zero. */
export function usageOf(stored: SubjectState | undefined, limits: KeyLimits, now: number): Usage {
  const state = stored ? { ...stored } : newState(Math.floor(now / MINUTE_MS), Math.floor(now / DAY_MS));
  roll(state, Math.floor(now / MINUTE_MS), Math.floor(now / DAY_MS));
  return { windows: windowsOf(state, limits), bannedUntil: state.bannedUntil > now ? state.bannedUntil : null };
}

/** Whole seconds (>= 1) until the exhausted window resets. */
export function retryAfterOf(state: SubjectState, limits: KeyLimits, now: number): number {
  return retryAfterAt(state.minute, state.day, state.dayServed, limits, now);
}

/** retryAfterOf from the numbers it reads. */
export function retryAfterAt(minute: number, day: number, dayServed: number, limits: KeyLimits, now: number): number {
  // Every day boundary is a minute boundary, so an exhausted day always resets last.
  const until = dayServed >= limits.perDay ? (day + 1) * DAY_MS : (minute + 1) * MINUTE_MS;
  return secondsUntil(until, now);
}

export function secondsUntil(until: number, now: number): number {
  return Math.max(1, Math.ceil((until - now) / 1000));
}

export function toRow(subject: string, s: SubjectState): SubjectRow {
  return [subject, s.minute, s.minuteServed, s.minuteRejected, s.day, s.dayServed, s.dayRejected, s.bannedUntil];
}

export function fromRow(row: SubjectRow): SubjectState {
  const [, minute, minuteServed, minuteRejected, day, dayServed, dayRejected, bannedUntil] = row;
  return { minute, minuteServed, minuteRejected, day, dayServed, dayRejected, bannedUntil };
}
