import { Low } from "lowdb";
import { StorageUnavailableError, StoreCorruptError, StoreLockedError } from "../errors.js";
import { acquireLock } from "../lock.js";
import type { Persist } from "../memory/group-commit.js";
import { createIndexedStore } from "../memory/indexed-store.js";
import { emptyStoreData, StoreState, type StoreData } from "../memory/store-state.js";
import type { Store } from "../open-store.js";
import { DurableJsonFile, type WriteEvent } from "./durable-json-file.js";
import { parseStoreFile } from "./file-schema.js";

export interface LowdbStoreOptions {
  /** Told when a stale lock is taken over. */
  warn: (message: string) => void;
  /** Called after every durable file write (one per batch). */
  onWrite?: (event: WriteEvent) => void;
}

/**
 * Opens (or creates, mode 0600) the JSON db file that holds pets and keys, under
 * `<file>.lock`. Throws StoreLockedError when another live process holds the lock,
 * StoreCorruptError (leaving the file untouched) when it cannot be read or parsed, and
 * StorageUnavailableError when the lock or a new file cannot be written.
 */
export async function openLowdbStore(file: string, options: LowdbStoreOptions): Promise<Store> {
  const lock = await acquireLock(file, options).catch((error: unknown) => {
    throw error instanceof StoreLockedError ? error : new StorageUnavailableError(file, messageOf(error));
  });
  try {
    const adapter = new DurableJsonFile(file, { validate: parseStoreFile, onWrite: options.onWrite });
    const db = await readDb(file, adapter);
    const state = new StoreState(db.data);
    return createIndexedStore({ name: file, state, persist: persistTo(db), release: lock.release });
  } catch (error) {
    await lock.release();
    throw error;
  }
}

async function readDb(file: string, adapter: DurableJsonFile<StoreData>): Promise<Low<StoreData>> {
  const empty = emptyStoreData();
  const db = new Low(adapter, empty);
  try {
    await db.read();
  } catch (error) {
    throw new StoreCorruptError(file, messageOf(error));
  }
  // Low keeps the default data only when the file does not exist.
  if (db.data === empty) await createDb(file, db);
  return db;
}

async function createDb(file: string, db: Low<StoreData>): Promise<void> {
  try {
    await db.write();
  } catch (error) {
    throw new StorageUnavailableError(file, messageOf(error));
  }
}

/** One `db.write()` per batch: lowdb's own coalescing resolves callers too late. */
function persistTo(db: Low<StoreData>): Persist {
  return async (snapshot) => {
    db.data = snapshot();
    await db.write();
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
