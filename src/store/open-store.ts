import type { KeyStore } from "./key-store.js";
import type { PetStore } from "./pet-store.js";

/** An open storage engine: the pet and key stores over one db, and how to close it. */
export interface Store {
  pets: PetStore;
  keys: KeyStore;
  /** Waits for pending writes, saves in-memory touches, releases the lock. Idempotent. */
  close(): Promise<void>;
}

export { openLowdbStore, type LowdbStoreOptions } from "./lowdb/open-lowdb-store.js";
export type { WriteEvent } from "./lowdb/durable-json-file.js";
export { openMemoryStore } from "./memory/open-memory-store.js";
export { openPostgresStore, type PostgresStoreOptions } from "./postgres/open-postgres-store.js";
