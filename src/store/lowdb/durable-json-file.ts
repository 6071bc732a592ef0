import { readFile } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import type { Adapter } from "lowdb";
import { isErrnoCode, messageOf } from "../../support/error-text.js";
import { writeFileAtomic } from "../../support/json-file.js";
import { StoreCorruptError } from "../errors.js";
import { unparsableReason } from "./damaged-file.js";

export interface WriteEvent {
  /** A whole-file rewrite of the db (snapshot) or one appended journal line. */
  file: "snapshot" | "journal";
  bytes: number;
  /** From the start of serialisation to the last fsync. */
  ms: number;
  /** Changes in the batch a journal line makes durable (for the batch-size metric). */
  changes?: number;
}

export interface DurableJsonFileOptions<T> {
  /** Turns the parsed JSON into T; throws, with the reason, when the shape is wrong. */
  validate: (json: unknown) => T;
  /** Called after each durable write: one call is one file write. */
  onWrite?: (event: WriteEvent) => void;
}

/**
 * The lowdb adapter under the db file. lowdb's own JSONFile neither fsyncs nor sets a mode, so
 * this one survives crashes and power loss: each write goes to a fresh temporary file (mode
 * 0600) that is fsynced, renamed over the db file, and then the directory is fsynced.
 */
export class DurableJsonFile<T> implements Adapter<T> {
  readonly file: string;
  readonly #options: DurableJsonFileOptions<T>;
  #size = 0;

  constructor(file: string, options: DurableJsonFileOptions<T>) {
    this.file = file;
    this.#options = options;
  }

  /** Bytes of the file as last read or written: what the compaction threshold is measured against. */
  get size(): number {
    return this.#size;
  }

  /**
   * The data, or null when the file does not exist; StoreCorruptError when it cannot be read,
   * parsed or validated (the validator's error as its cause), its reason in words.
   */
  async read(): Promise<T | null> {
    const bytes = await readFile(this.file).catch((error: unknown) => {
      if (isErrnoCode(error, "ENOENT")) return null;
      throw new StoreCorruptError(this.file, `it cannot be read (${(error as NodeJS.ErrnoException).code ?? messageOf(error)})`);
    });
    if (bytes === null) return null;
    let json: unknown;
    try {
      json = JSON.parse(bytes.toString("utf8"));
    } catch (error) {
      throw new StoreCorruptError(this.file, unparsableReason(bytes, error));
    }
    // Only the lock holder writes this file, so the size read now is the size of what was parsed.
    this.#size = bytes.length;
    try {
      return this.#options.validate(json);
    } catch (error) {
      throw new StoreCorruptError(this.file, messageOf(error), { cause: error });
    }
  }

  /** One serialisation, one durable file write. */
  async write(data: T): Promise<void> {
    const started = performance.now();
    const text = JSON.stringify(data);
    await writeFileAtomic(this.file, text, { durable: true, mode: 0o600 });
    this.#size = Buffer.byteLength(text);
    this.#options.onWrite?.({ file: "snapshot", bytes: this.#size, ms: performance.now() - started });
  }
}
