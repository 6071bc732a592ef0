import { performance } from "node:perf_hooks";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Persist } from "../memory/group-commit.js";
import { emptyBatch, type StoreData, type StoreState } from "../memory/store-state.js";
import type { DurableJsonFile, WriteEvent } from "./durable-json-file.js";
import { messageOf } from "./internal/files.js";
import { encodeRecord } from "./journal-record.js";
import type { JournalFile } from "./journal-file.js";

/** When the journal is folded into the snapshot: once it holds `ratio` of the snapshot's size, and at least `minBytes`. */
export interface CompactionPolicy {
  ratio: number;
  minBytes: number;
}

// Compacting when the journal reaches half the snapshot keeps the rewrite's cost per create constant
// whatever the number of pets, and bounds what a start has to replay.
export const DEFAULT_COMPACTION: CompactionPolicy = { ratio: 0.5, minBytes: 16 * 1024 };

export interface JournaledDbParts {
  snapshot: DurableJsonFile<StoreData>;
  /** Size of the snapshot file as opened. */
  snapshotBytes: number;
  journal: JournalFile;
  state: StoreState;
  policy: CompactionPolicy;
  warn: (message: string) => void;
  onWrite?: (event: WriteEvent) => void;
}

/**
 * The lowdb engine at run time: each group commit is one journal line (one write, one
 * fdatasync), whatever the size of the db. Once the journal has grown past the policy's
 * threshold, it is folded into the snapshot (temp file, fsync, rename) and emptied; a crash
 * between the two only leaves lines that replay as no-ops.
 */
export class JournaledDb {
  readonly #parts: JournaledDbParts;
  #snapshotBytes: number;
  #compactAt: number;
  #compactionFailing = false;
  // The journal must not be appended to while it is being compacted (it is emptied at the end).
  #compaction: Promise<void> = Promise.resolve();

  constructor(parts: JournaledDbParts) {
    this.#parts = parts;
    this.#snapshotBytes = parts.snapshotBytes;
    this.#compactAt = this.#threshold();
  }

  readonly persist: Persist = async (commit) => {
    await this.#compaction;
    const { journal, onWrite } = this.#parts;
    const line = encodeRecord(commit);
    const started = performance.now();
    await journal.append(line);
    onWrite?.({ file: "journal", bytes: line.length, ms: performance.now() - started });
    if (journal.length >= this.#compactAt) this.#compaction = this.#compact(commit.snapshot());
  };

  /** At close, once the last batch is settled: folds the journal in and removes it. Warns, never throws. */
  readonly finish = async (): Promise<void> => {
    await this.#compaction;
    const { journal, snapshot, state } = this.#parts;
    try {
      if (journal.length > 0 || state.keys.dirty) await snapshot.save(state.snapshot(emptyBatch()));
      await journal.remove();
    } catch (error) {
      this.#parts.warn(
        `cannot fold ${journal.path} into ${snapshot.file} at close (${messageOf(error)}); ` +
          "the next start replays it; key last-use times not yet written are lost",
      );
      await journal.close().catch(() => {});
    }
  };

  async #compact(data: StoreData): Promise<void> {
    // Lets the batch that crossed the threshold be answered before the rewrite blocks the loop.
    await nextTurn();
    const { journal, snapshot } = this.#parts;
    try {
      this.#snapshotBytes = await snapshot.save(data);
      await journal.clear();
      this.#compactAt = this.#threshold();
      if (this.#compactionFailing) this.#parts.warn(`compacted ${journal.path} into ${snapshot.file} again`);
      this.#compactionFailing = false;
    } catch (error) {
      // Every line is still in the journal: nothing is lost. Retry once it has grown as much again.
      this.#compactAt = journal.length + this.#threshold();
      if (!this.#compactionFailing) {
        this.#parts.warn(`cannot compact ${journal.path} into ${snapshot.file} (${messageOf(error)}); will retry later`);
      }
      this.#compactionFailing = true;
    }
  }

  #threshold(): number {
    const { ratio, minBytes } = this.#parts.policy;
    return Math.max(minBytes, Math.ceil(this.#snapshotBytes * ratio));
  }
}
