/** The db file exists but cannot be read or parsed. `serve` exits non-zero and leaves it untouched. */
export class StoreCorruptError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`cannot read the database ${file}: ${reason}`);
    this.name = "StoreCorruptError";
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
