import { open, readFile, unlink, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import { isErrnoCode } from "../../support/error-text.js";
import { syncDirectory } from "../../support/json-file.js";
import { writeAll } from "./internal/files.js";

/**
 * An append-only file of lines, each made durable (fdatasync) before `append` resolves.
 * Writes are positional at the end of what is known good, so the bytes of a failed
 * append are cut away and never sit between two acknowledged lines.
 */
export class JournalFile {
  readonly path: string;
  readonly #handle: FileHandle;
  #length: number;
  // A failed append may have left bytes past #length: cut them before the next one.
  #needsCut = false;

  private constructor(path: string, handle: FileHandle, length: number) {
    this.path = path;
    this.#handle = handle;
    this.#length = length;
  }

  /** The file's bytes, or undefined when it does not exist. */
  static async read(path: string): Promise<Buffer | undefined> {
    try {
      return await readFile(path);
    } catch (error) {
      if (isErrnoCode(error, "ENOENT")) return undefined;
      throw error;
    }
  }

  /**
   * Opens the journal for appending after its first `validLength` bytes, durably cutting off
   * whatever follows them; creates it (mode 0600) when absent.
   */
  static async open(path: string, validLength: number): Promise<JournalFile> {
    const handle = await openOrCreate(path);
    const journal = new JournalFile(path, handle, validLength);
    try {
      if ((await handle.stat()).size !== validLength) await journal.#cut();
    } catch (error) {
      await handle.close();
      throw error;
    }
    return journal;
  }

  /** Bytes of durable, complete lines. */
  get length(): number {
    return this.#length;
  }

  /** Appends `line` (which ends with a newline) in one write, then fdatasync. */
  async append(line: Uint8Array): Promise<void> {
    if (this.#needsCut) await this.#cut();
    try {
      await writeAll(this.#handle, line, this.#length);
      await this.#handle.datasync();
    } catch (error) {
      this.#needsCut = true;
      await this.#cut().catch(() => {});
      throw error;
    }
    this.#length += line.length;
  }

  /** Empties the journal durably, once everything in it is in the snapshot. */
  async clear(): Promise<void> {
    await this.#handle.truncate(0);
    await this.#handle.datasync();
    this.#length = 0;
    this.#needsCut = false;
  }

  async close(): Promise<void> {
    await this.#handle.close();
  }

  /** Closes and deletes the file, once everything in it is in the snapshot. */
  async remove(): Promise<void> {
    await this.#handle.close();
    await unlink(this.path);
    await syncDirectory(dirname(this.path));
  }

  async #cut(): Promise<void> {
    await this.#handle.truncate(this.#length);
    await this.#handle.datasync();
    this.#needsCut = false;
  }
}

async function openOrCreate(path: string): Promise<FileHandle> {
  try {
    // Not "a": with O_APPEND, Linux ignores the position of a write.
    return await open(path, "r+");
  } catch (error) {
    if (!isErrnoCode(error, "ENOENT")) throw error;
  }
  const handle = await open(path, "wx", 0o600);
  try {
    // Lines in a file whose directory entry is not durable could vanish with it.
    await syncDirectory(dirname(path));
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}
