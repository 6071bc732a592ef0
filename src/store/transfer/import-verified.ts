import type { StoreData } from "../indexed/store-state.js";
import { assertCounts, countsOf, type Counts } from "./export-format.js";
import { readStoreData, writeStoreData, type StoreDataOptions } from "./store-data.js";

/**
 * Writes `data` into the empty store `db`, then reads it back and checks the counts of each
 * kind: an import that lost a record says so instead of reporting success.
 */
export async function importVerified(db: string, data: StoreData, options: StoreDataOptions): Promise<Counts> {
  await writeStoreData(db, data, options);
  const written = countsOf(await readStoreData(db, options));
  assertCounts(countsOf(data), written, `the export holds`);
  return written;
}
