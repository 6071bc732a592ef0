// The in-process rate limiter: exact (it decides synchronously), with bans and optional persistence.
import type { KeyLimits } from "../contract/values.js";
import { messageOf } from "../support/error-text.js";
import { PeriodicSaver } from "../support/periodic-saver.js";
import type { LimitsPersister, Snapshot, SubjectRow } from "./persister.js";
import { BAN_POLICY, type BanPolicy } from "./plans.js";
import type { Decision, RateLimiter, Usage } from "./rate-limiter.js";
import {
  DAY_MS,
  MINUTE_MS,
  fromRow,
  newState,
  retryAfterOf,
  roll,
  secondsUntil,
  toRow,
  usageOf,
  windowsOf,
  type SubjectState,
} from "./subject-state.js";

const SAVE_INTERVAL_MS = 1_000;

export interface MemoryRateLimiterOptions {
  /** ms since the epoch; Date.now by default. */
  now?: () => number;
  ban?: BanPolicy;
  /** Without one the counters live in memory only. */
  persister?: LimitsPersister;
  /** State to start from (openMemoryRateLimiter passes the persisted one); expired parts are dropped. */
  snapshot?: Snapshot;
  /** For persistence trouble; console.warn by default. */
  warn?: (message: string) => void;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly subjects = new Map<string, SubjectState>();
  private readonly now: () => number;
  private readonly ban: BanPolicy;
  private readonly warn: (message: string) => void;
  private readonly saver: PeriodicSaver | undefined;
  private day: number;
  private dirty = false;
  private persisting: boolean;

  constructor(options: MemoryRateLimiterOptions = {}) {
    this.now = options.now ?? Date.now;
    this.ban = options.ban ?? BAN_POLICY;
    this.persisting = options.persister !== undefined;
    this.warn = options.warn ?? console.warn;
    this.saver = options.persister && this.createSaver(options.persister);
    this.day = Math.floor(this.now() / DAY_MS);
    if (options.snapshot) this.restore(options.snapshot);
  }

  /** Subjects currently held in memory. */
  get size(): number {
    return this.subjects.size;
  }

  consume(subject: string, limits: KeyLimits): Promise<Decision> {
    return Promise.resolve(this.decide(subject, limits));
  }

  peek(subject: string, limits: KeyLimits): Promise<Usage> {
    return Promise.resolve(usageOf(this.subjects.get(subject), limits, this.now()));
  }

  /** The synchronous core of consume(): counts the request and decides, with no await in between. */
  decide(subject: string, limits: KeyLimits): Decision {
    const now = this.now();
    const minute = Math.floor(now / MINUTE_MS);
    const day = Math.floor(now / DAY_MS);
    if (day !== this.day) this.startDay(day, now);
    let state = this.subjects.get(subject);
    if (state === undefined) {
      state = newState(minute, day);
      this.subjects.set(subject, state);
    } else {
      roll(state, minute, day);
    }
    if (state.bannedUntil > now) return banned(state, limits, now);
    this.changed();
    if (state.minuteServed < limits.perMinute && state.dayServed < limits.perDay) {
      state.minuteServed++;
      state.dayServed++;
      return { allowed: true, windows: windowsOf(state, limits) };
    }
    return this.reject(state, limits, now);
  }

  /** Persists the counters now, after any save already under way. */
  flush(): Promise<void> {
    return this.saver?.flush() ?? Promise.resolve();
  }

  /**
   * Stops the timer and saves a last time; the limiter keeps deciding but no longer persists.
   * A failed save is warned about, not thrown: lost counters must not stop a shutdown.
   */
  async close(): Promise<void> {
    this.persisting = false;
    try {
      await this.flush();
    } catch (error) {
      this.warn(`cannot save the rate-limit counters at close: ${messageOf(error)}`);
    }
  }

  /** The counters worth keeping, pruning subjects whose windows ended and who are not banned. */
  snapshot(): Snapshot {
    const now = this.now();
    this.prune(Math.floor(now / DAY_MS), now);
    const rows: SubjectRow[] = [];
    for (const [subject, state] of this.subjects) rows.push(toRow(subject, state));
    return { version: 1, savedAt: now, rows };
  }

  private reject(state: SubjectState, limits: KeyLimits, now: number): Decision {
    state.minuteRejected++;
    state.dayRejected++;
    const { threshold, durationSeconds } = this.ban;
    if (state.minuteRejected > threshold * limits.perMinute || state.dayRejected > threshold * limits.perDay) {
      state.bannedUntil = now + durationSeconds * 1000;
      return banned(state, limits, now);
    }
    const retryAfter = retryAfterOf(state, limits, now);
    return { allowed: false, reason: "rate_limited", retryAfter, windows: windowsOf(state, limits) };
  }

  private restore(snapshot: Snapshot): void {
    const now = this.now();
    const minute = Math.floor(now / MINUTE_MS);
    for (const row of snapshot.rows) {
      const state = fromRow(row);
      if (state.day !== this.day && state.bannedUntil <= now) continue;
      roll(state, minute, this.day);
      this.subjects.set(row[0], state);
    }
  }

  // Without this, memory would grow with every client IP ever seen; a day is as long as any
  // counter matters, so the sweep runs once per UTC day (and before every save).
  private startDay(day: number, now: number): void {
    this.day = day;
    this.prune(day, now);
  }

  private prune(day: number, now: number): void {
    for (const [subject, state] of this.subjects) {
      if (state.day !== day && state.bannedUntil <= now) this.subjects.delete(subject);
    }
  }

  private changed(): void {
    this.dirty = true;
    if (this.persisting) this.saver?.schedule();
  }

  // Saves run one after another (the saver chains them), so two renames never race and a slow
  // disk never stacks writes.
  private createSaver(persister: LimitsPersister): PeriodicSaver {
    const save = async (): Promise<void> => {
      if (!this.dirty) return;
      this.dirty = false;
      try {
        await persister.save(this.snapshot());
      } catch (error) {
        this.dirty = true;
        throw error;
      }
    };
    return new PeriodicSaver({ save, intervalMs: SAVE_INTERVAL_MS, warn: this.warn, what: "cannot save the rate-limit counters" });
  }
}

/**
 * A limiter that starts from the persister's state and saves to it at most once a second and at
 * close(). An unreadable state is warned about and replaced: losing rate counters is better than
 * refusing to start the API.
 *
 * @example await openMemoryRateLimiter({ persister: filePersister(`${db}.limits.json`), ban, warn })
 */
export async function openMemoryRateLimiter(
  options: MemoryRateLimiterOptions & { persister: LimitsPersister },
): Promise<MemoryRateLimiter> {
  const warn = options.warn ?? console.warn;
  let snapshot: Snapshot | undefined;
  try {
    snapshot = await options.persister.load();
  } catch (error) {
    warn(`${messageOf(error)}; starting with empty rate-limit counters`);
  }
  return new MemoryRateLimiter({ ...options, warn, snapshot });
}

function banned(state: SubjectState, limits: KeyLimits, now: number): Decision {
  const retryAfter = secondsUntil(state.bannedUntil, now);
  return { allowed: false, reason: "key_banned", retryAfter, windows: windowsOf(state, limits) };
}
