// The seed file of `serve --seed`, read and checked before anything opens or listens.
import { JsonFileError, readJsonFile } from "../../support/json-file.js";
import { parseSeed, SeedError, type Seed } from "./seed-data.js";

/** Reads and checks `file`; every problem (missing, not JSON, a bad record) is a SeedError naming the file. */
export async function readSeedFile(file: string, now: () => number): Promise<Seed> {
  let seed: Seed | undefined;
  try {
    seed = await readJsonFile(file, (json) => parseSeed(json, now));
  } catch (error) {
    if (error instanceof JsonFileError) throw new SeedError(`--seed ${error.message}`);
    throw error;
  }
  if (seed === undefined) throw new SeedError(`--seed ${file}: no such file`);
  return seed;
}
