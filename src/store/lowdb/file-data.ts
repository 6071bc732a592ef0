// The whole data of a db file, read or written at once under its lock: what export, import and
// migrate need, without opening a store (no journal for appending, no group commit).
import { StoreCorruptError, StoreLockedError, StoreNotEmptyError } from "../errors.js";
import { acquireLock } from "../lock.js";
import { withAdvice } from "./damaged-file.js";
import { resolveDbFile } from "./db-file-path.js";
import type { StoreData } from "../indexed/store-state.js";
import { DurableJsonFile } from "./durable-json-file.js";
import { parseStoreFile } from "./file-schema.js";
import { JournalFile } from "./journal-file.js";
import { parseJournal } from "./journal-record.js";
import { replayJournal } from "./replay-journal.js";
import { upgradeStoreFile } from "./upgrade-file.js";

export interface FileDataOptions {
  warn: (message: string) => void;
}

/**
 * The db file with its journal replayed, read under the lock so no compaction can move lines
 * between the two while they are read. A running server holds the lock: this then throws
 * StoreLockedError (take a backup through the server instead).
 */
export async function readFileData(path: string, options: FileDataOptions): Promise<StoreData> {
  const file = await resolveDbFile(path);
  return underLock(file, options, async () => {
    const upgrade = await upgradeStoreFile(file);
    if (upgrade) options.warn(`upgraded ${file} from format version ${upgrade.from}; the old file is kept as ${upgrade.backup}`);
    const data = await new DurableJsonFile(file, { validate: parseStoreFile }).read();
    if (data === null) throw new Error(`there is no database at ${file}`);
    const journal = await JournalFile.read(`${file}.journal`);
    return replayJournal(data, journal ? parseJournal(journal).records : []);
  });
}

/**
 * Writes `data` as a new db file, durably (fsync, rename). Refuses a file that holds anything
 * or has a journal: an import never merges into, or overwrites, a store.
 */
export async function writeNewFileData(path: string, data: StoreData, options: FileDataOptions): Promise<void> {
  const checked = parseStoreFile(JSON.parse(JSON.stringify(data)) as unknown);
  const file = await resolveDbFile(path);
  await underLock(file, options, async () => {
    const adapter = new DurableJsonFile(file, { validate: parseStoreFile });
    const held = await adapter.read();
    const journal = await JournalFile.read(`${file}.journal`);
    if ((held && !isEmpty(held)) || (journal && journal.length > 0)) {
      throw new StoreNotEmptyError(file);
    }
    await adapter.write(checked);
  });
}

function isEmpty(data: StoreData): boolean {
  return data.pets.length === 0 && data.keys.length === 0 && data.orders.length === 0 && (data.webhooks ?? []).length === 0;
}

async function underLock<T>(file: string, options: FileDataOptions, run: () => Promise<T>): Promise<T> {
  const lock = await acquireLock(file, options).catch((error: unknown) => {
    if (error instanceof StoreLockedError) {
      throw new Error(`${file} is in use by a running petstore (${error.message}); stop it, or use \`petstore db backup\``, { cause: error });
    }
    throw error;
  });
  try {
    return await run();
  } catch (error) {
    throw error instanceof StoreCorruptError ? withAdvice(error, file) : error;
  } finally {
    await lock.release();
  }
}
