// The in-process rate limiter: exact (it decides synchronously), with bans and optional persistence.
import { setImmediate as nextTurn } from "node:timers/promises";
import type { KeyLimits } from "../contract/values.js";
import { messageOf } from "../support/error-text.js";
import { PeriodicSaver } from "../support/periodic-saver.js";
import type { LimitsPersister, RowBatches, Snapshot, SubjectRow } from "./persister.js";
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
/**
 * Subjects handled per turn of the event loop when saving or sweeping, so 100,000 subjects never
 * hold requests up for the 30-50 ms one pass over all of them takes. 2,000 a turn held the main
 * thread up to 12 ms on a CPU under bench scenario 7's load (p99 turn ~3 ms); 500 up to 8-14 ms
 * (p99 ~2.2 ms): the rest of the worst turns are scavenges, not these slices.
 */
const SUBJECTS_PER_TURN = 500;

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
  /** Subjects changed since the last save: what the next one appends. */
  private dirty = new Set<string>();
  /** A new UTC day began: the next save rewrites everything, leaving out the subjects that expired. */
  private rewriteDue = false;
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
    if (day !== this.day) this.startDay(day);
    let state = this.subjects.get(subject);
    if (state === undefined) {
      state = newState(minute, day);
      this.subjects.set(subject, state);
    } else {
      roll(state, minute, day);
    }
    if (state.bannedUntil > now) return banned(state, limits, now);
    this.changed(subject);
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

  /** Every subject's row, for a whole rewrite; subjects whose windows ended (and not banned) leave memory. */
  private async *liveRows(): RowBatches {
    let batch: SubjectRow[] = [];
    let now = this.now();
    let seen = 0;
    // A Map iterates live: subjects added between turns are visited, deleted ones are not.
    for (const [subject, state] of this.subjects) {
      if (expired(state, now)) this.subjects.delete(subject);
      else batch.push(toRow(subject, state));
      if (++seen % SUBJECTS_PER_TURN === 0) {
        yield batch;
        batch = [];
        await nextTurn();
        now = this.now();
      }
    }
    yield batch;
  }

  /** The rows of these subjects as they are now (a subject swept meanwhile is left out). */
  private async *rowsOf(subjects: Set<string>): RowBatches {
    let batch: SubjectRow[] = [];
    let seen = 0;
    for (const subject of subjects) {
      const state = this.subjects.get(subject);
      if (state) batch.push(toRow(subject, state));
      if (++seen % SUBJECTS_PER_TURN === 0) {
        yield batch;
        batch = [];
        await nextTurn();
      }
    }
    yield batch;
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
  // counter matters. The sweep is never done by the request that notices the new day: with a
  // persister the next save rewrites everything and leaves expired subjects out, without one a
  // sweep runs a few thousand subjects per turn.
  private startDay(day: number): void {
    this.day = day;
    if (this.persisting) {
      this.rewriteDue = true;
      this.saver?.schedule();
    } else {
      void this.sweep();
    }
  }

  private async sweep(): Promise<void> {
    let seen = 0;
    for (const [subject, state] of this.subjects) {
      if (expired(state, this.now())) this.subjects.delete(subject);
      if (++seen % SUBJECTS_PER_TURN === 0) await nextTurn();
    }
  }

  private changed(subject: string): void {
    if (!this.persisting) return;
    this.dirty.add(subject);
    this.saver?.schedule();
  }

  // Saves run one after another (the saver chains them), so two renames never race and a slow
  // disk never stacks writes.
  private createSaver(persister: LimitsPersister): PeriodicSaver {
    const save = async (): Promise<void> => {
      const day = Math.floor(this.now() / DAY_MS);
      if (day !== this.day) {
        this.day = day;
        this.rewriteDue = true;
      }
      if (this.rewriteDue || persister.wantsRewrite()) return this.rewriteAll(persister);
      if (this.dirty.size === 0) return;
      const subjects = this.dirty;
      this.dirty = new Set();
      try {
        await persister.append(this.rowsOf(subjects), this.now());
      } catch (error) {
        for (const subject of subjects) this.dirty.add(subject);
        throw error;
      }
    };
    return new PeriodicSaver({ save, intervalMs: SAVE_INTERVAL_MS, warn: this.warn, what: "cannot save the rate-limit counters" });
  }

  // Every subject is written, so the changes noted so far are in it; those made while the rewrite
  // runs (possibly after their row was written) are noted afresh and appended by the next save.
  private async rewriteAll(persister: LimitsPersister): Promise<void> {
    const noted = this.dirty;
    const due = this.rewriteDue;
    this.dirty = new Set();
    this.rewriteDue = false;
    try {
      await persister.rewrite(this.liveRows(), this.now());
    } catch (error) {
      for (const subject of noted) this.dirty.add(subject);
      this.rewriteDue = due;
      throw error;
    }
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

/** Both windows ended and no ban holds: nothing about this subject matters any more. */
function expired(state: SubjectState, now: number): boolean {
  return state.day !== Math.floor(now / DAY_MS) && state.bannedUntil <= now;
}

function banned(state: SubjectState, limits: KeyLimits, now: number): Decision {
  const retryAfter = secondsUntil(state.bannedUntil, now);
  return { allowed: false, reason: "key_banned", retryAfter, windows: windowsOf(state, limits) };
}
