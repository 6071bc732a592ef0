// What `pets import` remembers of an unfinished import: the positions of the records it has
// created, one number a line, appended as each answer comes. A re-run of the same file to the
// same base URL sends only the others, so resuming spends no quota on what is known to be done
// (replaying those under their Idempotency-Keys would cost a request each, a day's quota for a
// day's work, and the server forgets the keys after 24 hours). Removed once the import is complete.
import { appendFileSync, mkdirSync, promises as fs } from "node:fs";
import { dirname, join } from "node:path";
import { isErrnoCode } from "../../../support/error-text.js";

export interface ImportJournal {
  /** The positions (0-based, in the file) that earlier runs created or replayed. */
  read(): Promise<ReadonlySet<number>>;
  /** Notes one more, on disk before it returns, so a kill -9 loses nothing that was noted. */
  add(index: number): void;
  /** The import is complete: nothing to resume. */
  remove(): Promise<void>;
}

/** The journal of one import, in `folder`: one file per file hash and base URL (`journalId`). */
export function fileImportJournal(folder: string, id: string): ImportJournal {
  const path = join(folder, `${id}.log`);
  let folderMade = false;
  return {
    async read() {
      try {
        const text = await fs.readFile(path, "utf8");
        // A line cut short by a kill is not a number: it is left out, and that record sent again.
        return new Set(text.split("\n").filter((line) => /^\d+$/.test(line)).map(Number));
      } catch (error) {
        if (isErrnoCode(error, "ENOENT")) return new Set();
        throw error;
      }
    },
    add(index) {
      if (!folderMade) mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      folderMade = true;
      appendFileSync(path, `${index}\n`, { mode: 0o600 });
    },
    async remove() {
      await fs.rm(path, { force: true });
    },
  };
}

/** An import's identity: the same file (by its hash) to the same base URL. */
export function journalId(fileHash: string, baseUrl: string): string {
  const { createHash } = process.getBuiltinModule("node:crypto");
  return createHash("sha256").update(`${baseUrl}\n${fileHash}`).digest("hex").slice(0, 32);
}
