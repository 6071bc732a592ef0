import { performance } from "node:perf_hooks";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Low } from "lowdb";
import { messageOf } from "../../support/error-text.js";
import type { Persist } from "../indexed/group-commit.js";
import { emptyBatch, emptyStoreData, type Batch, type StoreData, type StoreState } from "../indexed/store-state.js";
import type { DurableJsonFile, WriteEvent } from "./durable-json-file.js";
import { encodeRecord } from "./journal-record.js";
import type { JournalFile } from "./journal-file.js";

/** When the journal is folded into the snapshot: once it holds `ratio` of the snapshot's size, and at least `minBytes`. */
export interface CompactionPolicy {
  ratio: number;
  minBytes: number;
}

// Compacting when the journal reaches twice the snapshot keeps the rewrite's cost per create constant
// whatever the number of pets (half a byte rewritten per byte appended), and bounds what a start after
// a crash replays to twice the db. At half the snapshot (two bytes rewritten per byte appended), a
// db made mostly of webhook deliveries was rewritten so often that the rewrites showed in the profile.
export const DEFAULT_COMPACTION: CompactionPolicy = { ratio: 2, minBytes: 16 * 1024 };

export interface JournaledDbParts {
  /** The lowdb document over `file`: compaction and close set its data and write it. */
  document: Low<StoreData>;
  /** The document's adapter, for its name and the size of its last read or write. */
  file: DurableJsonFile<StoreData>;
  journal: JournalFile;
  state: StoreState;
  policy: CompactionPolicy;
  warn: (message: string) => void;
  onWrite?: (event: WriteEvent) => void;
}

/**
 * The lowdb engine at run time. Two files, two jobs:
 * - lowdb holds the whole db as one JSON document (`petstore.json`): it is read once at start
 *   (`db.read()`), and written whole (`db.data = ...; db.write()`) only at compaction and at
 *   close, through DurableJsonFile (temp file, fsync, rename, directory fsync).
 * - the journal (`petstore.json.journal`, ours) makes each group commit durable as one appended
 *   line (one write, one fdatasync), so a create costs the same whatever the size of the db.
 * Once the journal has grown past the policy's threshold, it is folded into the document and
 * emptied; a crash between the two only leaves lines that replay as no-ops.
 */
export class JournaledDb {
  readonly #parts: JournaledDbParts;
  #compactAt: number;
  #compactionFailing = false;
  // The journal must not be appended to while it is being compacted (it is emptied at the end).
  #compaction: Promise<void> = Promise.resolve();

  constructor(parts: JournaledDbParts) {
    this.#parts = parts;
    this.#compactAt = this.#threshold();
  }

  readonly persist: Persist = async (commit) => {
    await this.#compaction;
    const { journal, onWrite } = this.#parts;
    const { deliveries } = this.#parts.state;
    const line = encodeRecord(commit, (id) => deliveries.get(id) !== undefined);
    const started = performance.now();
    await journal.append(line);
    onWrite?.({ file: "journal", bytes: line.length, ms: performance.now() - started, changes: batchSize(commit.batch) });
    if (journal.length >= this.#compactAt) this.#compaction = this.#compact(commit.snapshot());
  };

  /** At close, once the last batch is settled: folds the journal in and removes it. Warns, never throws. */
  readonly finish = async (): Promise<void> => {
    await this.#compaction;
    const { journal, file, state } = this.#parts;
    try {
      if (journal.length > 0 || state.keys.dirty) await this.#writeDocument(state.snapshot(emptyBatch()));
      await journal.remove();
    } catch (error) {
      this.#parts.warn(
        `cannot fold ${journal.path} into ${file.file} at close (${messageOf(error)}); ` +
          "the next start replays it; key last-use times not yet written are lost",
      );
      await journal.close().catch(() => {});
    }
  };

  async #compact(data: StoreData): Promise<void> {
    // Lets the batch that crossed the threshold be answered before the rewrite blocks the loop.
    await nextTurn();
    const { journal, file } = this.#parts;
    try {
      await this.#writeDocument(data);
      await journal.clear();
      this.#compactAt = this.#threshold();
      if (this.#compactionFailing) this.#parts.warn(`compacted ${journal.path} into ${file.file} again`);
      this.#compactionFailing = false;
    } catch (error) {
      // Every line is still in the journal: nothing is lost. Retry once it has grown as much again.
      this.#compactAt = journal.length + this.#threshold();
      if (!this.#compactionFailing) {
        this.#parts.warn(`cannot compact ${journal.path} into ${file.file} (${messageOf(error)}); will retry later`);
      }
      this.#compactionFailing = true;
    }
  }

  /** lowdb's way to replace the document: set its data, then write it (one serialisation, one file write). */
  async #writeDocument(data: StoreData): Promise<void> {
    const { document } = this.#parts;
    document.data = data;
    try {
      await document.write();
    } finally {
      // The state is the truth in memory; a snapshot kept here would be a second copy of every
      // record until the next compaction.
      document.data = emptyStoreData();
    }
  }

  #threshold(): number {
    const { ratio, minBytes } = this.#parts.policy;
    return Math.max(minBytes, Math.ceil(this.#parts.file.size * ratio));
  }
}

function batchSize(batch: Batch): number {
  return batch.pets.length + batch.updated.size + batch.deleted.size + batch.keys.length + batch.revocations.size + batch.rotations.size;
}
