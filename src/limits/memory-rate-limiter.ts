// The in-process rate limiter: exact (it decides synchronously), with bans and optional persistence.
import { setImmediate as nextTurn } from "node:timers/promises";
import type { KeyLimits } from "../contract/values.js";
import { messageOf } from "../support/error-text.js";
import { PeriodicSaver } from "../support/periodic-saver.js";
import type { LimitsPersister, RowBatches, Snapshot } from "./persister.js";
import { BAN_POLICY, type BanPolicy } from "./plans.js";
import { SlotBatch } from "./slot-batch.js";
import type { Decision, RateLimiter, Usage } from "./rate-limiter.js";
import { DAY_MS, MINUTE_MS, retryAfterAt, secondsUntil, usageOf, windowsAt, type SubjectState } from "./subject-state.js";
import {
  BANNED_UNTIL,
  DAY,
  DAY_REJECTED,
  DAY_SERVED,
  MINUTE,
  MINUTE_REJECTED,
  MINUTE_SERVED,
  SubjectTable,
} from "./subject-table.js";

const SAVE_INTERVAL_MS = 1_000;
/**
 * Subjects handled per turn of the event loop when saving or sweeping, so that a pass over 100,000
 * subjects is never one long turn. The midnight passes (rewrite, sweep) run code that has not
 * run since the day before, in V8's interpreter, so a subject costs far more then than warm: a
 * small turn keeps the worst pause of the requests in between short, and the extra writes (one
 * per turn) cost nothing the bench can see (docs/performance.md).
 */
const SUBJECTS_PER_TURN = 100;

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
  private readonly subjects = new SubjectTable();
  /** The batch every save fills, one at a time (saves never overlap). */
  private readonly batch = new SlotBatch(this.subjects, SUBJECTS_PER_TURN);
  private readonly now: () => number;
  private readonly ban: BanPolicy;
  private readonly warn: (message: string) => void;
  private readonly saver: PeriodicSaver | undefined;
  private day: number;
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

  consumeSync(subject: string, limits: KeyLimits): Decision {
    return this.decide(subject, limits);
  }

  peek(subject: string, limits: KeyLimits): Promise<Usage> {
    const slot = this.subjects.find(subject);
    return Promise.resolve(usageOf(slot < 0 ? undefined : this.stateAt(slot), limits, this.now()));
  }

  /** The synchronous core of consume(): counts the request and decides, with no await in between. */
  decide(subject: string, limits: KeyLimits): Decision {
    const now = this.now();
    const minute = Math.floor(now / MINUTE_MS);
    const day = Math.floor(now / DAY_MS);
    if (day !== this.day) this.startDay(day);
    const table = this.subjects;
    let slot = table.find(subject);
    if (slot < 0) slot = table.add(subject, minute, day);
    else this.roll(slot, minute, day);
    if (table.get(slot, BANNED_UNTIL) > now) return this.banned(slot, limits, now);
    this.changed(slot);
    const minuteServed = table.get(slot, MINUTE_SERVED);
    const dayServed = table.get(slot, DAY_SERVED);
    if (minuteServed < limits.perMinute && dayServed < limits.perDay) {
      table.set(slot, MINUTE_SERVED, minuteServed + 1);
      table.set(slot, DAY_SERVED, dayServed + 1);
      return { allowed: true, windows: windowsAt(minute, minuteServed + 1, day, dayServed + 1, limits) };
    }
    return this.reject(slot, limits, now);
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
    const table = this.subjects;
    const batch = this.batch;
    batch.clear();
    let now = this.now();
    // Slots are walked by number: a subject added between turns may take a slot already passed,
    // and is then written by the next save, as its change was noted.
    for (let slot = 0; slot < table.end; slot++) {
      if (this.expired(slot, now)) table.remove(slot);
      else if (table.has(slot)) batch.add(slot);
      if ((slot + 1) % SUBJECTS_PER_TURN === 0) {
        yield batch;
        batch.clear();
        await nextTurn();
        now = this.now();
      }
    }
    yield batch;
  }

  /** The rows of these slots as they are now (a subject removed meanwhile is left out). */
  private async *rowsOf(slots: Int32Array): RowBatches {
    const batch = this.batch;
    batch.clear();
    for (const slot of slots) {
      if (this.subjects.has(slot)) batch.add(slot);
      if (batch.full) {
        yield batch;
        batch.clear();
        await nextTurn();
      }
    }
    yield batch;
  }

  /**
   * Moves the slot's counters into the current windows, zeroing those that have ended. Written
   * without branches on purpose: a new day is seen once a day, and V8's optimised `decide`, never
   * having run a branch for it, was thrown away ("insufficient type feedback") by the first
   * request after midnight, and ran slower until optimised again. The writes cost nanoseconds.
   */
  private roll(slot: number, minute: number, day: number): void {
    const table = this.subjects;
    const sameMinute = table.get(slot, MINUTE) === minute ? 1 : 0;
    table.set(slot, MINUTE, minute);
    table.set(slot, MINUTE_SERVED, table.get(slot, MINUTE_SERVED) * sameMinute);
    table.set(slot, MINUTE_REJECTED, table.get(slot, MINUTE_REJECTED) * sameMinute);
    const sameDay = table.get(slot, DAY) === day ? 1 : 0;
    table.set(slot, DAY, day);
    table.set(slot, DAY_SERVED, table.get(slot, DAY_SERVED) * sameDay);
    table.set(slot, DAY_REJECTED, table.get(slot, DAY_REJECTED) * sameDay);
  }

  private reject(slot: number, limits: KeyLimits, now: number): Decision {
    const table = this.subjects;
    const minuteRejected = table.get(slot, MINUTE_REJECTED) + 1;
    const dayRejected = table.get(slot, DAY_REJECTED) + 1;
    table.set(slot, MINUTE_REJECTED, minuteRejected);
    table.set(slot, DAY_REJECTED, dayRejected);
    const { threshold, durationSeconds } = this.ban;
    if (minuteRejected > threshold * limits.perMinute || dayRejected > threshold * limits.perDay) {
      table.set(slot, BANNED_UNTIL, now + durationSeconds * 1000);
      return this.banned(slot, limits, now);
    }
    const retryAfter = retryAfterAt(table.get(slot, MINUTE), table.get(slot, DAY), table.get(slot, DAY_SERVED), limits, now);
    return { allowed: false, reason: "rate_limited", retryAfter, windows: this.windows(slot, limits) };
  }

  private banned(slot: number, limits: KeyLimits, now: number): Decision {
    const retryAfter = secondsUntil(this.subjects.get(slot, BANNED_UNTIL), now);
    return { allowed: false, reason: "key_banned", retryAfter, windows: this.windows(slot, limits) };
  }

  private windows(slot: number, limits: KeyLimits): Decision["windows"] {
    const table = this.subjects;
    return windowsAt(table.get(slot, MINUTE), table.get(slot, MINUTE_SERVED), table.get(slot, DAY), table.get(slot, DAY_SERVED), limits);
  }

  private stateAt(slot: number): SubjectState {
    const t = this.subjects;
    return {
      minute: t.get(slot, MINUTE),
      minuteServed: t.get(slot, MINUTE_SERVED),
      minuteRejected: t.get(slot, MINUTE_REJECTED),
      day: t.get(slot, DAY),
      dayServed: t.get(slot, DAY_SERVED),
      dayRejected: t.get(slot, DAY_REJECTED),
      bannedUntil: t.get(slot, BANNED_UNTIL),
    };
  }

  /**
   * Both windows ended and no ban holds: nothing about this subject matters any more. Every part
   * is evaluated, not short-circuited, for the reason given at roll(): before midnight no subject
   * is of another day, and the ban's read would first run in the midnight rewrite.
   */
  private expired(slot: number, now: number): boolean {
    const table = this.subjects;
    const held = table.has(slot);
    const otherDay = table.get(slot, DAY) !== Math.floor(now / DAY_MS);
    const unbanned = table.get(slot, BANNED_UNTIL) <= now;
    return held && otherDay && unbanned;
  }

  private restore(snapshot: Snapshot): void {
    const now = this.now();
    const minute = Math.floor(now / MINUTE_MS);
    for (const row of snapshot.rows) {
      if (row[4] !== this.day && row[7] <= now) continue;
      // A later row of a subject replaces an earlier one, as in the changes file.
      this.subjects.remove(this.subjects.find(row[0]));
      this.roll(this.subjects.restore(row), minute, this.day);
    }
  }

  // Without this, memory would grow with every client IP ever seen; a day is as long as any
  // counter matters. The sweep is never done by the request that notices the new day: with a
  // persister the next save rewrites everything and leaves expired subjects out, without one a
  // sweep runs SUBJECTS_PER_TURN subjects a turn from the next turn on.
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
    // Not one subject in the request that noticed the new day.
    await nextTurn();
    for (let slot = 0; slot < this.subjects.end; slot++) {
      if (this.expired(slot, this.now())) this.subjects.remove(slot);
      if ((slot + 1) % SUBJECTS_PER_TURN === 0) await nextTurn();
    }
  }

  private changed(slot: number): void {
    if (!this.persisting) return;
    this.subjects.markChanged(slot);
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
      if (this.subjects.changedCount === 0) return;
      const slots = this.subjects.takeChanged();
      try {
        await persister.append(this.rowsOf(slots), this.now());
      } catch (error) {
        for (const slot of slots) this.subjects.markChanged(slot);
        throw error;
      }
    };
    return new PeriodicSaver({ save, intervalMs: SAVE_INTERVAL_MS, warn: this.warn, what: "cannot save the rate-limit counters" });
  }

  // Every subject is written, so the changes noted so far are in it; those made while the rewrite
  // runs (possibly after their row was written) are noted afresh and appended by the next save.
  private async rewriteAll(persister: LimitsPersister): Promise<void> {
    const noted = this.subjects.takeChanged();
    const due = this.rewriteDue;
    this.rewriteDue = false;
    try {
      await persister.rewrite(this.liveRows(), this.now());
    } catch (error) {
      for (const slot of noted) if (this.subjects.has(slot)) this.subjects.markChanged(slot);
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
