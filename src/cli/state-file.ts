// What the client remembers between runs that is not configuration: when it last showed a notice
// (one JSON file in $XDG_STATE_HOME/petstore/, else ~/.local/state/petstore/, mode 0600), and the
// journals of unfinished imports (imports/ beside it).
// node:fs/promises through fs.promises, read when first used: loading it at start-up costs
// node:stream and node:readline (the CLI bundle evaluates every import when it starts).
import { promises as fs } from "node:fs";
import { dirname, join } from "node:path";
import { readJsonFile, writeFileAtomic } from "../support/json-file.js";
import { fileImportJournal, type ImportJournal } from "./internal/import/import-journal.js";

export interface CliState {
  /** Base URL → Unix ms when the deprecation notice of `pets get` was last shown for it. */
  deprecationNoticeShown?: Record<string, number>;
  /** Base URL → Unix ms when the beta notice of the Store commands was last shown for it. */
  betaNoticeShown?: Record<string, number>;
}

export interface StateStore {
  /** A missing or unreadable file is an empty state: losing it only repeats a notice. */
  read(): Promise<CliState>;
  write(state: CliState): Promise<void>;
  /** The journal of an unfinished `pets import` (import-journal.ts), by its journalId. */
  importJournal(id: string): ImportJournal;
}

export function stateFilePath(env: { XDG_STATE_HOME?: string }, home: string): string {
  const base = env.XDG_STATE_HOME || join(home, ".local", "state");
  return join(base, "petstore", "state.json");
}

export function fileStateStore(path: string): StateStore {
  return {
    async read() {
      try {
        return (await readJsonFile(path, asState)) ?? {};
      } catch {
        return {};
      }
    },
    async write(state) {
      await fs.mkdir(dirname(path), { recursive: true, mode: 0o700 });
      await writeFileAtomic(path, `${JSON.stringify(state)}\n`, { mode: 0o600 });
    },
    importJournal: (id) => fileImportJournal(join(dirname(path), "imports"), id),
  };
}

function asState(json: unknown): CliState {
  if (typeof json !== "object" || json === null) return {};
  const state: CliState = {};
  for (const key of ["deprecationNoticeShown", "betaNoticeShown"] as const) {
    const shown = (json as CliState)[key];
    if (typeof shown === "object" && shown !== null) state[key] = shown;
  }
  return state;
}
