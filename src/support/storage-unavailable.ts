// The one failure that every engine (lowdb file, PostgreSQL, Redis limiter) can meet and that the
// server answers alike (503 storage_unavailable): here, outside store/ and limits/, so that
// neither has to import the other to throw it.

/** A write could not be made durable, or the engine cannot answer (disk full, database or Redis down). Nothing was acknowledged. */
export class StorageUnavailableError extends Error {
  constructor(
    /** The db file, or the URL (without password) of the database or Redis. */
    readonly file: string,
    readonly reason: string,
  ) {
    super(`cannot write the database ${file}: ${reason}`);
    this.name = "StorageUnavailableError";
  }
}
