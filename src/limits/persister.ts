// The seam between the memory limiter and wherever its counters survive a restart.

/**
 * One subject's counters: [subject, minute, minuteServed, minuteRejected, day, dayServed,
 * dayRejected, bannedUntil]. minute = floor(ms / 60000), day = floor(ms / 86400000) (UTC);
 * bannedUntil is ms since the epoch, 0 when not banned. Rows rather than objects keep the file
 * small and cheap to stringify with many client IPs.
 */
export type SubjectRow = [
  subject: string,
  minute: number,
  minuteServed: number,
  minuteRejected: number,
  day: number,
  dayServed: number,
  dayRejected: number,
  bannedUntil: number,
];

export interface Snapshot {
  version: 1;
  /** ms since the epoch, by the limiter's clock. */
  savedAt: number;
  rows: SubjectRow[];
}

/** Where snapshots live: a file now, perhaps Redis later. */
export interface LimitsPersister {
  /** undefined when nothing was saved yet; throws when the stored state cannot be read. */
  load(): Promise<Snapshot | undefined>;
  save(snapshot: Snapshot): Promise<void>;
}

/** Keeps the last snapshot in memory (like lowdb's Memory adapter): for tests and in-process restarts. */
export class MemoryPersister implements LimitsPersister {
  saves = 0;
  last: Snapshot | undefined;

  async load(): Promise<Snapshot | undefined> {
    return this.last && structuredClone(this.last);
  }

  async save(snapshot: Snapshot): Promise<void> {
    this.saves++;
    this.last = structuredClone(snapshot);
  }
}

/** Checks an untrusted value (a parsed file) and returns it as a Snapshot, or a reason it is not one. */
export function parseSnapshot(value: unknown): Snapshot | string {
  if (typeof value !== "object" || value === null) return "not a JSON object";
  const { version, savedAt, rows } = value as Record<string, unknown>;
  if (version !== 1) return `unsupported version ${JSON.stringify(version)}`;
  if (!isCount(savedAt)) return "savedAt is not a timestamp";
  if (!Array.isArray(rows)) return "rows is not an array";
  for (let i = 0; i < rows.length; i++) {
    if (!isRow(rows[i])) return `rows[${i}] is not [subject, 7 non-negative integers]`;
  }
  return { version, savedAt, rows: rows as SubjectRow[] };
}

function isRow(row: unknown): row is SubjectRow {
  if (!Array.isArray(row) || row.length !== 8 || typeof row[0] !== "string") return false;
  for (let i = 1; i < 8; i++) if (!isCount(row[i])) return false;
  return true;
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
