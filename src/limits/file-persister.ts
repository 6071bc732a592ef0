// Rate-limit counters in their own JSON file beside the db (e.g. `petstore.json.limits.json`),
// never in the pets db: they change on every request and must not cost a db write.
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { parseSnapshot, type LimitsPersister, type Snapshot } from "./persister.js";

/** The counters file cannot be parsed; the limiter warns and starts empty. */
export class CorruptLimitsFileError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`the rate-limit counters file ${file} is unreadable: ${reason}`);
    this.name = "CorruptLimitsFileError";
  }
}

let tempSequence = 0;

/**
 * A persister writing the whole snapshot atomically (temp file, then rename), mode 0600.
 *
 * @example filePersister(`${dbPath}.limits.json`)
 */
export function filePersister(path: string): LimitsPersister {
  return {
    load: () => loadSnapshot(path),
    save: (snapshot) => saveSnapshot(path, snapshot),
  };
}

async function loadSnapshot(path: string): Promise<Snapshot | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CorruptLimitsFileError(path, `not valid JSON (${(error as Error).message})`);
  }
  const snapshot = parseSnapshot(json);
  if (typeof snapshot === "string") throw new CorruptLimitsFileError(path, snapshot);
  return snapshot;
}

// No fsync: a file torn by a power cut only costs the counters, which load() then drops.
async function saveSnapshot(path: string, snapshot: Snapshot): Promise<void> {
  // A fresh name per write ("wx") so the mode applies and two writers never share a temp file.
  const temp = `${path}.${process.pid}.${++tempSequence}.tmp`;
  try {
    await writeFile(temp, JSON.stringify(snapshot), { mode: 0o600, flag: "wx" });
    await rename(temp, path);
  } catch (error) {
    // The write's own error is the one to report (disk full, not "cannot remove").
    await rm(temp, { force: true }).catch(() => {});
    throw error;
  }
}
