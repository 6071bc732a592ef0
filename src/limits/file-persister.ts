// Rate-limit counters in their own files beside the db, never in the pets db: they change on every
// request and must not cost a db write. Two files: the whole state (`petstore.json.limits.json`),
// rewritten now and then, and the changes since (`petstore.json.limits.log`, one line per save),
// so that a save costs what changed in the last second, not every subject ever seen.
import { open, readFile, stat, truncate, type FileHandle } from "node:fs/promises";
import { isErrnoCode } from "../support/error-text.js";
import { JsonFileError, readJsonFile, writeFileAtomic } from "../support/json-file.js";
import { checkRows, isCount, parseSnapshot, type LimitsPersister, type RowBatches, type Snapshot, type SubjectRow } from "./persister.js";

/** Changes may outgrow the whole state by this much before a rewrite: small states do not churn. */
const REWRITE_SLACK_BYTES = 1024 * 1024;

/** The counters files cannot be parsed; the limiter warns and starts empty. */
export class CorruptLimitsFileError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`the rate-limit counters file ${file} is unreadable: ${reason}`);
    this.name = "CorruptLimitsFileError";
  }
}

/** The changes file that goes with a state file: `x.limits.json` → `x.limits.log`. */
export function changesPathOf(path: string): string {
  return `${path.replace(/\.json$/, "")}.log`;
}

/**
 * A persister over `path` and its changes file, both mode 0600. Each rewrite starts a new
 * generation: the state file names it, and changes lines of another generation (left by a crash
 * between a rewrite's rename and the truncation that follows it) are ignored.
 *
 * @example filePersister(`${dbPath}.limits.json`)
 */
export function filePersister(path: string): LimitsPersister {
  return new FilePersister(path);
}

class FilePersister implements LimitsPersister {
  readonly #path: string;
  readonly #changesPath: string;
  #generation = 0;
  #stateBytes = 0;
  #changesBytes = 0;
  /** Until a load succeeds, what is on disk is unknown: the next save writes everything. */
  #mustRewrite = true;

  constructor(path: string) {
    this.#path = path;
    this.#changesPath = changesPathOf(path);
  }

  async load(): Promise<Snapshot | undefined> {
    this.#mustRewrite = true;
    const state = await this.#loadState();
    this.#generation = state?.generation ?? 0;
    this.#stateBytes = state ? (await stat(this.#path)).size : 0;
    const changes = await this.#loadChanges();
    // Without a state file the first save writes one: the changes file is never the only one.
    this.#mustRewrite = state === undefined;
    if (!state && changes.rows.size === 0) return undefined;
    const rows = new Map<string, SubjectRow>((state?.rows ?? []).map((row) => [row[0], row]));
    for (const [subject, row] of changes.rows) rows.set(subject, row);
    return { version: 1, savedAt: Math.max(state?.savedAt ?? 0, changes.savedAt), rows: [...rows.values()] };
  }

  async append(batches: RowBatches, savedAt: number): Promise<void> {
    const pieces = jsonPieces(`{"generation":${this.#generation},"savedAt":${savedAt},"rows":[`, batches, "]}\n");
    let written = 0;
    let handle;
    try {
      handle = await open(this.#changesPath, "a", 0o600);
      for await (const piece of pieces) written += await writeAll(handle, piece);
      this.#changesBytes += written;
    } catch (error) {
      // A line cut short would make every later line unreadable: take it back, and should that
      // fail too, let the next save rewrite everything (which empties this file).
      if (written > 0) await truncate(this.#changesPath, this.#changesBytes).catch(() => (this.#mustRewrite = true));
      throw error;
    } finally {
      await handle?.close();
    }
  }

  async rewrite(batches: RowBatches, savedAt: number): Promise<void> {
    const generation = this.#generation + 1;
    let bytes = 0;
    const counted = async function* (pieces: AsyncIterable<string | Uint8Array>) {
      for await (const piece of pieces) {
        bytes += typeof piece === "string" ? Buffer.byteLength(piece) : piece.byteLength;
        yield piece;
      }
    };
    const head = `{"version":1,"savedAt":${savedAt},"generation":${generation},"rows":[`;
    await writeFileAtomic(this.#path, counted(jsonPieces(head, batches, "]}")), { mode: 0o600 });
    this.#generation = generation;
    this.#stateBytes = bytes;
    this.#mustRewrite = false;
    try {
      await truncate(this.#changesPath, 0);
    } catch (error) {
      if (!isErrnoCode(error, "ENOENT")) throw error;
    }
    this.#changesBytes = 0;
  }

  wantsRewrite(): boolean {
    return this.#mustRewrite || this.#changesBytes > this.#stateBytes + REWRITE_SLACK_BYTES;
  }

  async #loadState(): Promise<(Snapshot & { generation: number }) | undefined> {
    try {
      return await readJsonFile(this.#path, toState);
    } catch (error) {
      if (error instanceof JsonFileError) throw new CorruptLimitsFileError(this.#path, error.reason);
      throw error;
    }
  }

  /** The rows of this generation's changes, last one of each subject winning. Cuts off a torn last line. */
  async #loadChanges(): Promise<{ rows: Map<string, SubjectRow>; savedAt: number }> {
    const rows = new Map<string, SubjectRow>();
    let savedAt = 0;
    let bytes: Buffer;
    try {
      bytes = await readFile(this.#changesPath);
    } catch (error) {
      if (isErrnoCode(error, "ENOENT")) return { rows, savedAt };
      throw error;
    }
    const { lines, validLength } = completeLines(bytes);
    lines.forEach((line, index) => {
      const change = parseChange(line);
      if (typeof change === "string") throw new CorruptLimitsFileError(this.#changesPath, `line ${index + 1}: ${change}`);
      if (change.generation !== this.#generation) return;
      for (const row of change.rows) rows.set(row[0], row);
      savedAt = Math.max(savedAt, change.savedAt);
    });
    // A save cut short by a crash: never acknowledged to anyone, and in the way of the next line.
    if (validLength < bytes.length) await truncate(this.#changesPath, validLength);
    this.#changesBytes = validLength;
    return { rows, savedAt };
  }
}

/**
 * `head`, then the rows of every batch as JSON array elements, then `tail`: a piece per batch,
 * the limiter's own bytes, each written before the next batch is made.
 */
async function* jsonPieces(head: string, batches: RowBatches, tail: string): AsyncGenerator<string | Uint8Array> {
  yield head;
  let first = true;
  for await (const batch of batches) {
    if (batch.size === 0) continue;
    const json = batch.json();
    yield first ? json.subarray(1) : json;
    first = false;
  }
  yield tail;
}

/** Writes all of `piece` at the file's position (a write may stop short); returns the bytes written. */
async function writeAll(handle: FileHandle, piece: string | Uint8Array): Promise<number> {
  const bytes = typeof piece === "string" ? Buffer.from(piece) : piece;
  for (let done = 0; done < bytes.byteLength; ) done += (await handle.write(bytes, done)).bytesWritten;
  return bytes.byteLength;
}

/** The lines that end with a newline and parse as JSON; a last line that does not is torn. */
function completeLines(bytes: Buffer): { lines: string[]; validLength: number } {
  let validLength = bytes.lastIndexOf(0x0a) + 1;
  const lines = bytes.subarray(0, validLength).toString("utf8").split("\n");
  lines.pop();
  const last = lines.at(-1);
  if (last !== undefined && parseJson(last) === undefined) {
    lines.pop();
    validLength -= Buffer.byteLength(last) + 1;
  }
  return { lines, validLength };
}

function parseChange(line: string): { generation: number; savedAt: number; rows: SubjectRow[] } | string {
  const json = parseJson(line);
  if (typeof json !== "object" || json === null) return "not a JSON object";
  const { generation, savedAt, rows } = json as Record<string, unknown>;
  if (!isCount(generation)) return "generation is not a count";
  if (!isCount(savedAt)) return "savedAt is not a timestamp";
  const reason = checkRows(rows);
  if (reason !== undefined) return reason;
  return { generation, savedAt, rows: rows as SubjectRow[] };
}

function toState(json: unknown): Snapshot & { generation: number } {
  const snapshot = parseSnapshot(json);
  if (typeof snapshot === "string") throw new Error(snapshot);
  // Files written before the changes file existed have no generation: theirs is 0.
  const generation = (json as { generation?: unknown }).generation ?? 0;
  if (!isCount(generation)) throw new Error("generation is not a count");
  return { ...snapshot, generation };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
