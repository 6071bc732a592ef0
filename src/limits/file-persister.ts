// Rate-limit counters in their own JSON file beside the db (e.g. `petstore.json.limits.json`),
// never in the pets db: they change on every request and must not cost a db write.
import { JsonFileError, readJsonFile, writeFileAtomic } from "../support/json-file.js";
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
  try {
    return await readJsonFile(path, toSnapshot);
  } catch (error) {
    if (error instanceof JsonFileError) throw new CorruptLimitsFileError(path, error.reason);
    throw error;
  }
}

function toSnapshot(json: unknown): Snapshot {
  const snapshot = parseSnapshot(json);
  if (typeof snapshot === "string") throw new Error(snapshot);
  return snapshot;
}

// Not durable (no fsync): a file torn by a power cut only costs the counters, which load() then drops.
async function saveSnapshot(path: string, snapshot: Snapshot): Promise<void> {
  await writeFileAtomic(path, JSON.stringify(snapshot), { mode: 0o600 });
}
