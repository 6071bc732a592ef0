// Where a store's whole data is read from and written to, by the form of --db: a postgres:// URL
// or a file path. Each engine's module is imported only when used, so a file-only petstore
// never loads pg.
import type { StoreData } from "../indexed/store-state.js";

export interface StoreDataOptions {
  warn: (message: string) => void;
}

export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//.test(db);
}

/** Everything `db` holds, consistent as of one instant. */
export async function readStoreData(db: string, options: StoreDataOptions): Promise<StoreData> {
  if (isPostgresUrl(db)) return (await import("../postgres/postgres-data.js")).readPostgresData(db);
  return (await import("../lowdb/file-data.js")).readFileData(db, options);
}

/** Writes `data` into `db`, which must be new or empty; ids, hashes and states are kept. */
export async function writeStoreData(db: string, data: StoreData, options: StoreDataOptions): Promise<void> {
  if (isPostgresUrl(db)) return (await import("../postgres/postgres-data.js")).writePostgresData(db, data);
  return (await import("../lowdb/file-data.js")).writeNewFileData(db, data, options);
}
