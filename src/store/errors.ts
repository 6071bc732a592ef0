import { printable } from "../support/error-text.js";

export interface CorruptOptions {
  /** The file is the db's journal, not the db file itself. */
  journal?: boolean;
  /** What to do about it, on the lines after the reason. */
  advice?: string;
  cause?: unknown;
}

/**
 * The db file or its journal exists but cannot be read or parsed. `serve` exits non-zero and
 * leaves it untouched. The reason may quote the file: it is made printable (no control characters).
 */
export class StoreCorruptError extends Error {
  readonly reason: string;
  readonly journal: boolean;
  readonly advice: string | undefined;

  constructor(
    readonly file: string,
    reason: string,
    options: CorruptOptions = {},
  ) {
    const safe = printable(reason);
    const what = options.journal ? "the journal" : "the database";
    super(`cannot read ${what} ${file}: ${safe}${options.advice ? `\n${options.advice}` : ""}`, { cause: options.cause });
    this.name = "StoreCorruptError";
    this.reason = safe;
    this.journal = options.journal === true;
    this.advice = options.advice;
  }
}

/** Another live process holds the db file's lock. */
export class StoreLockedError extends Error {
  constructor(
    readonly file: string,
    readonly pid: number,
  ) {
    super(`the database ${file} is in use by another petstore process (pid ${pid})`);
    this.name = "StoreLockedError";
  }
}

// Lives in support/ (the limiters throw it too); re-exported because the server's error handler
// and some tests name it by this path.
export { StorageUnavailableError } from "../support/storage-unavailable.js";

/** An import or a seed refused: the target already holds pets, keys or orders, which it never merges into or overwrites. */
export class StoreNotEmptyError extends Error {
  constructor(readonly target: string) {
    super(`${target} is not empty: import only into a new or empty store`);
    this.name = "StoreNotEmptyError";
  }
}
