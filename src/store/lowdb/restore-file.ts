// Puts a backup in place of a stopped store's db file: the backup is checked as `serve` would
// read it, the current db and its journal are moved aside (never deleted), and the backup is
// written atomically, so the next start opens exactly the backup's data.
import { promises as fs } from "node:fs";
import { isErrnoCode } from "../../support/error-text.js";
import type { StoreData } from "../indexed/store-state.js";
import { StoreCorruptError, StoreLockedError } from "../errors.js";
import { acquireLock } from "../lock.js";
import { resolveDbFile } from "./db-file-path.js";
import { DurableJsonFile } from "./durable-json-file.js";
import { parseStoreFile } from "./file-schema.js";

export interface RestoreOptions {
  warn: (message: string) => void;
  /** When the restore runs: it names the files moved aside. */
  now: () => Date;
}

export interface RestoreResult {
  /** The db file written (symlinks followed). */
  db: string;
  /** Where the old db file and its journal went; absent when there was none. */
  movedDb?: string;
  movedJournal?: string;
  data: StoreData;
}

/** The backup has no db file to read: a usage error, not a damaged store. */
export class BackupMissingError extends Error {
  override name = "BackupMissingError";
}

/**
 * Checks `backup` as the store's open does, then, under the db's lock, moves `db` and its
 * journal aside and writes the backup's data in their place. A damaged backup or a running
 * server changes nothing.
 */
export async function restoreFile(backup: string, db: string, options: RestoreOptions): Promise<RestoreResult> {
  const data = await readBackup(backup);
  const file = await resolveDbFile(db);
  const lock = await acquireLock(file, options).catch((error: unknown) => {
    if (error instanceof StoreLockedError) {
      throw new Error(`${error.message}: stop it first, then restore; nothing was changed`, { cause: error });
    }
    throw error;
  });
  try {
    const moved = await moveAside(file, options.now());
    await new DurableJsonFile(file, { validate: parseStoreFile }).write(data);
    return { db: file, ...moved, data };
  } finally {
    await lock.release();
  }
}

async function readBackup(backup: string): Promise<StoreData> {
  const adapter = new DurableJsonFile(backup, { validate: parseStoreFile });
  const data = await adapter.read().catch((error: unknown) => {
    if (!(error instanceof StoreCorruptError)) throw error;
    // Not the db's advice (restore over it): the store is fine, this backup is not one to use.
    throw new StoreCorruptError(backup, error.reason, { advice: "Nothing was changed. Restore another backup, or check that this one was written by `petstore db backup`.", cause: error.cause });
  });
  if (data === null) throw new BackupMissingError(`there is no backup at ${backup}`);
  return data;
}

/** Renames the db file and its journal to `<db>.before-restore-<UTC time>[.journal]`, a pair `serve --db` can open. */
async function moveAside(file: string, now: Date): Promise<{ movedDb?: string; movedJournal?: string }> {
  const hasDb = await exists(file);
  const hasJournal = await exists(`${file}.journal`);
  if (!hasDb && !hasJournal) return {};
  const aside = await freeName(`${file}.before-restore-${now.toISOString().replace(/[-:]|\.\d+/g, "")}`);
  const result: { movedDb?: string; movedJournal?: string } = {};
  if (hasDb) {
    await fs.rename(file, aside);
    result.movedDb = aside;
  }
  if (hasJournal) {
    await fs.rename(`${file}.journal`, `${aside}.journal`);
    result.movedJournal = `${aside}.journal`;
  }
  return result;
}

/** `name`, or `name-2`, `name-3`...: a rename must never replace an earlier restore's copy. */
async function freeName(name: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${name}-${n}`;
    if (!(await exists(candidate)) && !(await exists(`${candidate}.journal`))) return candidate;
  }
}

async function exists(path: string): Promise<boolean> {
  return fs.lstat(path).then(
    () => true,
    (error: unknown) => {
      if (isErrnoCode(error, "ENOENT")) return false;
      throw error;
    },
  );
}
