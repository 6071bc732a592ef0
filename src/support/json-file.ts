// Reading and writing the small JSON files beside the db and in the user's config folder:
// one read-parse-validate path, one atomic write.
// node:fs/promises through fs.promises, read when first used: loading it at start-up costs
// node:stream and node:readline (the CLI bundle evaluates every import when it starts).
import { promises as fs } from "node:fs";
import { dirname } from "node:path";
import { isErrnoCode, messageOf, printable } from "./error-text.js";

/** The file exists but cannot be read, parsed or validated; `reason` says which, for a message. */
export class JsonFileError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
    this.name = "JsonFileError";
  }
}

/**
 * Reads a JSON file and hands the parsed value to `validate`, which returns the typed value or
 * throws with a reason. A missing file is `undefined`; anything else wrong is a JsonFileError.
 * @example await readJsonFile("petstore.json.limits.json", parseSnapshot)
 */
export async function readJsonFile<T>(file: string, validate: (json: unknown) => T): Promise<T | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    if (isErrnoCode(error, "ENOENT")) return undefined;
    throw new JsonFileError(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? messageOf(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new JsonFileError(file, `not valid JSON (${jsonSyntaxProblem(error)})`);
  }
  try {
    return validate(json);
  } catch (error) {
    throw new JsonFileError(file, messageOf(error));
  }
}

/**
 * JSON.parse's complaint without the excerpt V8 quotes from the text (`"\u0000\u00ff..." is not
 * valid JSON`): the text may be binary or hold escape sequences, and is never echoed.
 * @example jsonSyntaxProblem(new SyntaxError(`Unexpected token 'g', "garbage" is not valid JSON`)) === "Unexpected token 'g'"
 */
export function jsonSyntaxProblem(error: unknown): string {
  return printable(messageOf(error).replace(/, ".*" is not valid JSON$/s, ""));
}

export interface AtomicWriteOptions {
  /** File mode of a new file; 0600 unless said otherwise (these files hold keys and hashes). */
  mode?: number;
  /**
   * fsync the file before the rename and the directory after it, so the write survives a power
   * cut; without it a torn write is possible and the reader must cope.
   */
  durable?: boolean;
}

let tempSequence = 0;

/**
 * Replaces `file` with `data` atomically: a reader sees the old content or the new one, never a
 * mix. The data goes to a fresh temporary file beside it (created with "wx", so the mode applies
 * and two writers never share one), which is then renamed over the file. An async iterable is
 * written piece by piece as it yields, for content too big to build in one turn of the event loop.
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array | AsyncIterable<string | Uint8Array>,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const temp = `${file}.${process.pid}.${++tempSequence}.tmp`;
  try {
    const handle = await fs.open(temp, "wx", options.mode ?? 0o600);
    try {
      if (typeof data === "string" || data instanceof Uint8Array) await handle.writeFile(data);
      // writeFile writes all of a piece from the current position (write may stop short).
      else for await (const piece of data) await (typeof piece === "string" ? handle.write(piece) : handle.writeFile(piece));
      if (options.durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, file);
  } catch (error) {
    // The write's own error is the one to report (disk full, not "cannot remove").
    await fs.rm(temp, { force: true }).catch(() => {});
    throw error;
  }
  if (options.durable) await syncDirectory(dirname(file));
}

/** Makes a rename, a creation or an unlink in `directory` durable. */
export async function syncDirectory(directory: string): Promise<void> {
  const handle = await fs.open(directory, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
