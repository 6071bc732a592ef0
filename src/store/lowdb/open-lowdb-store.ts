import { Low } from "lowdb";
import { messageOf } from "../../support/error-text.js";
import { StorageUnavailableError } from "../../support/storage-unavailable.js";
import { StoreCorruptError, StoreLockedError } from "../errors.js";
import { acquireLock } from "../lock.js";
import { resolveDbFile } from "./db-file-path.js";
import { createIndexedStore } from "../indexed/indexed-store.js";
import { emptyStoreData, STORE_DATA_VERSION, StoreState } from "../indexed/store-state.js";
import type { Store } from "../store.js";
import { withAdvice } from "./damaged-file.js";
import { DurableJsonFile, type WriteEvent } from "./durable-json-file.js";
import { parseStoreFile } from "./file-schema.js";
import { removeLeftoverTemps } from "./internal/files.js";
import { JournalFile } from "./journal-file.js";
import { parseJournal, type ParsedJournal } from "./journal-record.js";
import { DEFAULT_COMPACTION, JournaledDb, type CompactionPolicy } from "./journaled-db.js";
import { replayJournal } from "./replay-journal.js";
import { upgradeStoreFile } from "./upgrade-file.js";

export interface LowdbStoreOptions {
  /** Told when a stale lock is taken over, a torn journal line is dropped, or a compaction fails. */
  warn: (message: string) => void;
  /** Called after every durable file write: one journal line per batch, or one snapshot rewrite. */
  onWrite?: (event: WriteEvent) => void;
  /** When the journal is folded into the db file; DEFAULT_COMPACTION unless a test needs it sooner. */
  compaction?: CompactionPolicy;
  /** The clock that decides when idempotency records expire (pruned at each rewrite); Date.now by default. */
  now?: () => number;
}

/**
 * Opens (or creates, mode 0600) the JSON db file that holds pets and keys, with its journal
 * `<file>.journal`, under `<file>.lock`, where `<file>` is the path resolved (resolveDbFile). Throws StoreLockedError when another live process
 * holds the lock, StoreCorruptError (leaving every file untouched) when the db or its journal
 * cannot be read or parsed, and StorageUnavailableError when the lock or a new file cannot be
 * written.
 */
export async function openLowdbStore(path: string, options: LowdbStoreOptions): Promise<Store> {
  const file = await resolveDbFile(path);
  const lock = await acquireLock(file, options).catch((error: unknown) => {
    throw error instanceof StoreLockedError ? error : new StorageUnavailableError(file, messageOf(error));
  });
  try {
    const { db, state } = await openJournaledDb(file, options);
    // After the open succeeded: a db that cannot be opened is left as it was, old version included.
    await upgradeOrThrow(file, options.warn);
    // After the open, so that a db that cannot be opened leaves every file as it found it.
    await removeLeftoverTemps(file).catch((error: unknown) => {
      options.warn(`cannot remove leftover temporary files of ${file}: ${messageOf(error)}`);
    });
    return createIndexedStore({ name: file, state, persist: db.persist, finish: db.finish, release: lock.release });
  } catch (error) {
    await lock.release();
    throw error instanceof StoreCorruptError ? withAdvice(error, file) : error;
  }
}

/** An older db file is upgraded before it is read, its copy kept beside it; said once, on stderr. */
async function upgradeOrThrow(file: string, warn: (message: string) => void): Promise<void> {
  // The open has just read and validated the file under this lock: the upgrade need not parse it again.
  const upgrade = await upgradeStoreFile(file, { checked: true }).catch((error: unknown) => {
    if (error instanceof StoreCorruptError) throw error;
    throw new StorageUnavailableError(file, `cannot upgrade it: ${messageOf(error)}`);
  });
  if (upgrade) warn(`upgraded ${file} from format version ${upgrade.from} to ${STORE_DATA_VERSION}; the old file is kept as ${upgrade.backup}`);
}

/** Reads the lowdb document, replays the journal over it, and opens the journal for appending. */
async function openJournaledDb(file: string, options: LowdbStoreOptions): Promise<{ db: JournaledDb; state: StoreState }> {
  const adapter = new DurableJsonFile(file, { validate: parseStoreFile, onWrite: options.onWrite });
  const defaults = emptyStoreData();
  const document = new Low(adapter, defaults);
  const journalPath = `${file}.journal`;
  await readOrThrow(file, () => document.read());
  // lowdb's read() keeps the defaults when the adapter finds no file.
  const stored = document.data !== defaults;
  const journalBytes = await readOrThrow(journalPath, () => JournalFile.read(journalPath), { journal: true });
  if (!stored && journalBytes?.length) {
    throw new StoreCorruptError(journalPath, `it is there but the database ${file} is not`, { journal: true });
  }
  const parsed = journalBytes ? await readOrThrow(journalPath, async () => parseJournal(journalBytes), { journal: true }) : undefined;
  const data = await readOrThrow(journalPath, async () => replayJournal(document.data, parsed?.records ?? []), { journal: true });
  if (!stored) await writeOrThrow(file, () => document.write());
  const journal = await writeOrThrow(journalPath, () => JournalFile.open(journalPath, parsed?.validLength ?? 0));
  warnTorn(journalPath, parsed, options.warn);
  const state = new StoreState(data, options.now);
  // The state now holds every record; the parsed file would otherwise stay in memory beside it
  // until the first compaction (a second copy of every pet). Nothing writes
  // the document without first setting its data from the state (JournaledDb's compaction and close).
  document.data = emptyStoreData();
  const db = new JournaledDb({
    document,
    file: adapter,
    journal,
    state,
    policy: options.compaction ?? DEFAULT_COMPACTION,
    warn: options.warn,
    onWrite: options.onWrite,
  });
  return { db, state };
}

function warnTorn(path: string, parsed: ParsedJournal | undefined, warn: (message: string) => void): void {
  if (!parsed?.tornBytes) return;
  warn(`dropped the incomplete last line of ${path} (${parsed.tornBytes} bytes): its write never finished, so it was never acknowledged`);
}

async function readOrThrow<T>(path: string, read: () => Promise<T>, options: { journal?: boolean } = {}): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof StoreCorruptError) throw error;
    throw new StoreCorruptError(path, messageOf(error), options);
  }
}

async function writeOrThrow<T>(path: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw new StorageUnavailableError(path, messageOf(error));
  }
}
