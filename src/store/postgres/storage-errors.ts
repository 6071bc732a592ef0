import { DatabaseError } from "pg";
import { messageOf } from "../../support/error-text.js";
import { StorageUnavailableError } from "../../support/storage-unavailable.js";
import { IdempotencyKeyTakenError } from "../idempotency-store.js";

// SQLSTATE classes that mean "the database cannot serve us right now", not "this request is wrong":
// 08 connection exception, 53 insufficient resources, 57 operator intervention (shutdown,
// statement timeout), 58 system error; and 55000 for a database closed to connections.
const UNAVAILABLE_CLASSES = new Set(["08", "53", "57", "58"]);

/**
 * The error a store method throws: StorageUnavailableError when PostgreSQL is unreachable,
 * shutting down or too slow (the routes answer 503), the error itself otherwise.
 */
function toStoreError(error: unknown, database: string): unknown {
  if (error instanceof DatabaseError) {
    const code = error.code ?? "";
    return UNAVAILABLE_CLASSES.has(code.slice(0, 2)) || code === "55000"
      ? new StorageUnavailableError(database, error.message)
      : error;
  }
  // Thrown by our own code inside a transaction to roll it back: an outcome, not an outage.
  if (error instanceof IdempotencyKeyTakenError) return error;
  // Everything else from pg is about the connection: refused, reset, timed out, pool ended.
  if (error instanceof Error) return new StorageUnavailableError(database, messageOf(error));
  return error;
}

/** Runs one database call, translating its failure with toStoreError. */
export async function storageCall<T>(database: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toStoreError(error, database);
  }
}
