import { open, readFile, rename, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { performance } from "node:perf_hooks";
import type { Adapter } from "lowdb";
import { isCode, syncDirectory } from "./internal/files.js";

export interface WriteEvent {
  /** A whole-file rewrite of the db (snapshot) or one appended journal line. */
  file: "snapshot" | "journal";
  bytes: number;
  /** From the start of serialisation to the last fsync. */
  ms: number;
}

export interface DurableJsonFileOptions<T> {
  /** Turns the parsed JSON into T; throws when the shape is wrong. */
  validate: (json: unknown) => T;
  /** Called after each durable write: one call is one file write. */
  onWrite?: (event: WriteEvent) => void;
}

/**
 * A lowdb adapter that survives crashes and power loss: each write goes to a temporary
 * file that is fsynced, renamed over the db file, and then the directory is fsynced.
 * (lowdb's JSONFile does not fsync.) Files are created with mode 0600.
 */
export class DurableJsonFile<T> implements Adapter<T> {
  readonly file: string;
  readonly #temp: string;
  readonly #options: DurableJsonFileOptions<T>;

  constructor(file: string, options: DurableJsonFileOptions<T>) {
    this.file = file;
    // One fixed name: only the lock holder writes, one write at a time, and a
    // leftover of a crash is simply replaced.
    this.#temp = `${file}.tmp`;
    this.#options = options;
  }

  /** The data, or null when the file does not exist. */
  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.file, "utf8");
    } catch (error) {
      if (isCode(error, "ENOENT")) return null;
      throw error;
    }
    return this.#options.validate(JSON.parse(text));
  }

  async write(data: T): Promise<void> {
    await this.save(data);
  }

  /** `write`, resolving with the size of the file written. */
  async save(data: T): Promise<number> {
    const started = performance.now();
    const bytes = Buffer.from(JSON.stringify(data));
    try {
      await writeSynced(this.#temp, bytes);
      await rename(this.#temp, this.file);
    } catch (error) {
      await unlink(this.#temp).catch(() => {});
      throw error;
    }
    await syncDirectory(dirname(this.file));
    this.#options.onWrite?.({ file: "snapshot", bytes: bytes.length, ms: performance.now() - started });
    return bytes.length;
  }
}

async function writeSynced(file: string, bytes: Buffer): Promise<void> {
  await unlink(file).catch((error: unknown) => {
    if (!isCode(error, "ENOENT")) throw error;
  });
  // "wx" so the mode applies: opening an existing file would keep its mode.
  const handle = await open(file, "wx", 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
