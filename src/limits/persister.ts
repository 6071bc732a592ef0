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

/**
 * A few hundred rows as the limiter hands them over, read as they are when asked. Valid only until
 * the next batch is asked for: the limiter reuses its buffer, so a consumer writes one batch out
 * before it pulls the next.
 */
export interface RowBatch {
  readonly size: number;
  /** The rows as arrays. */
  rows(): SubjectRow[];
  /** The rows as JSON, each preceded by a comma (`,["key:a",1,...],[...]`), in UTF-8. */
  json(): Uint8Array;
}

/**
 * Rows in batches, each made in its own turn of the event loop, so that saving 100,000 subjects
 * never blocks requests for long.
 */
export type RowBatches = AsyncIterable<RowBatch>;

/** A RowBatch over rows already made (tests, other persisters). */
export function rowBatch(rows: SubjectRow[]): RowBatch {
  return {
    size: rows.length,
    rows: () => rows,
    json: () => Buffer.from(rows.map((row) => `,${JSON.stringify(row)}`).join("")),
  };
}

/**
 * Where the counters live: a file now, perhaps Redis later. Saving every subject every second
 * would cost O(subjects) a second, so the limiter appends only the subjects that changed, and
 * rewrites the whole state only when the appended changes have outgrown it.
 */
export interface LimitsPersister {
  /** What was saved, changes applied; undefined when nothing was. Throws when it cannot be read. */
  load(): Promise<Snapshot | undefined>;
  /** Records these subjects' rows; a later row of a subject replaces an earlier one. */
  append(rows: RowBatches, savedAt: number): Promise<void>;
  /** Replaces everything saved with these rows (the whole state, expired subjects left out). */
  rewrite(rows: RowBatches, savedAt: number): Promise<void>;
  /** True when the appended changes have grown past what a rewrite would write: time for one. */
  wantsRewrite(): boolean;
}

/** Keeps the saved state in memory (like lowdb's Memory adapter): for tests and in-process restarts. */
export class MemoryPersister implements LimitsPersister {
  appends = 0;
  rewrites = 0;
  #rows = new Map<string, SubjectRow>();
  #appendedRows = 0;
  #savedAt = 0;

  get saves(): number {
    return this.appends + this.rewrites;
  }

  /** The state as load() would return it, or undefined before the first save. */
  get last(): Snapshot | undefined {
    return this.saves === 0 ? undefined : { version: 1, savedAt: this.#savedAt, rows: structuredClone([...this.#rows.values()]) };
  }

  async load(): Promise<Snapshot | undefined> {
    return this.last;
  }

  async append(rows: RowBatches, savedAt: number): Promise<void> {
    for await (const batch of rows) {
      for (const row of batch.rows()) this.#rows.set(row[0], [...row]);
      this.#appendedRows += batch.size;
    }
    this.#savedAt = savedAt;
    this.appends++;
  }

  async rewrite(rows: RowBatches, savedAt: number): Promise<void> {
    const next = new Map<string, SubjectRow>();
    for await (const batch of rows) for (const row of batch.rows()) next.set(row[0], [...row]);
    this.#rows = next;
    this.#appendedRows = 0;
    this.#savedAt = savedAt;
    this.rewrites++;
  }

  wantsRewrite(): boolean {
    return this.#appendedRows > Math.max(1_000, this.#rows.size);
  }
}

/** Checks an untrusted value (a parsed file) and returns it as a Snapshot, or a reason it is not one. */
export function parseSnapshot(value: unknown): Snapshot | string {
  if (typeof value !== "object" || value === null) return "not a JSON object";
  const { version, savedAt, rows } = value as Record<string, unknown>;
  if (version !== 1) return `unsupported version ${JSON.stringify(version)}`;
  if (!isCount(savedAt)) return "savedAt is not a timestamp";
  const reason = checkRows(rows);
  if (reason !== undefined) return reason;
  return { version, savedAt, rows: rows as SubjectRow[] };
}

/** undefined when `rows` is an array of SubjectRow, else why not. */
export function checkRows(rows: unknown): string | undefined {
  if (!Array.isArray(rows)) return "rows is not an array";
  for (let i = 0; i < rows.length; i++) {
    if (!isRow(rows[i])) return `rows[${i}] is not [subject, 7 non-negative integers]`;
  }
  return undefined;
}

function isRow(row: unknown): row is SubjectRow {
  if (!Array.isArray(row) || row.length !== 8 || typeof row[0] !== "string") return false;
  for (let i = 1; i < 8; i++) if (!isCount(row[i])) return false;
  return true;
}

export function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
