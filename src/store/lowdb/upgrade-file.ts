// The db file's format version. Version 2 keys may carry an expiry and a rotated-out secret,
// version 3 keys their scopes; a petstore that knows an older version would drop those fields
// when loading (zod strips unknown fields), so an expired key would work again and a read-only
// key could write. The version number makes it refuse instead.
import { constants, createReadStream } from "node:fs";
import { copyFile, open, readFile } from "node:fs/promises";
import { writeFileAtomic } from "../../support/json-file.js";
import { STORE_DATA_VERSION } from "../indexed/store-state.js";
import { StoreCorruptError } from "../errors.js";
import { parseStoreFile } from "./file-schema.js";

/** What the upgrade did: the version it found and where the copy of the old file is, or nothing to do. */
export type Upgrade = { from: number; backup: string } | undefined;

/**
 * Brings an older db file to the current version, after keeping a copy of it beside it
 * (`petstore.json.v1.bak`). Call it under the lock. A file that is missing, not JSON, current or
 * newer is left for the normal read to report; one whose upgrade would not load is left untouched.
 */
export async function upgradeStoreFile(file: string, options: { checked?: boolean } = {}): Promise<Upgrade> {
  // Every start asks; parsing a large file only to read its version would take seconds.
  const leading = await leadingVersion(file);
  if ((leading ?? 0) >= STORE_DATA_VERSION) return undefined;
  if (leading !== undefined && options.checked) return upgradeStreamed(file, leading);
  const json = await readJson(file);
  if (json === undefined) return undefined;
  const from = typeof json.version === "number" ? json.version : 1;
  if (from >= STORE_DATA_VERSION) return undefined;
  const upgraded = { ...json, version: STORE_DATA_VERSION };
  try {
    parseStoreFile(upgraded);
  } catch (error) {
    throw new StoreCorruptError(file, error instanceof Error ? error.message : String(error));
  }
  const backup = await keepCopy(file, from);
  await writeFileAtomic(file, JSON.stringify(upgraded), { durable: true });
  return { from, backup };
}

/**
 * The upgrade of a file the caller has just read and validated under the lock (the store's open):
 * versions 1 to 3 differ only in fields that are optional, so the new file is the old one with
 * its leading version number replaced, streamed through in chunks. Parsing it again doubled the
 * load's garbage at 100k pets, and even a copy of its text left megabytes for the next full GC.
 */
async function upgradeStreamed(file: string, from: number): Promise<Upgrade> {
  const backup = await keepCopy(file, from);
  await writeFileAtomic(file, withVersion(file, STORE_DATA_VERSION), { durable: true });
  return { from, backup };
}

async function* withVersion(file: string, version: number): AsyncIterable<string | Uint8Array> {
  let first = true;
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    if (!first) {
      yield chunk;
      continue;
    }
    first = false;
    // The match is ASCII (spaces, braces, digits), so its length in characters is its length in bytes.
    const head = LEADING_VERSION.exec(chunk.toString("latin1", 0, 64))![0];
    yield head.replace(/\d+/, String(version));
    yield chunk.subarray(head.length);
  }
}

async function keepCopy(file: string, from: number): Promise<string> {
  const backup = `${file}.v${from}.bak`;
  // COPYFILE_EXCL: a copy from an earlier upgrade attempt is the original; never overwrite it.
  await copyFile(file, backup, constants.COPYFILE_EXCL).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  });
  return backup;
}

const LEADING_VERSION = /^\s*\{\s*"version"\s*:\s*(\d+)\s*[,}]/;

/**
 * The version as petstore writes it, first in the file (`{"version":2,...`), from the file's
 * first bytes; undefined when the file does not start so (a file written by hand, or missing),
 * and then the whole file is read to find out.
 */
async function leadingVersion(file: string): Promise<number | undefined> {
  const handle = await open(file, "r").catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const head = Buffer.alloc(64);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const match = LEADING_VERSION.exec(head.toString("utf8", 0, bytesRead));
    return match ? Number(match[1]) : undefined;
  } finally {
    await handle.close();
  }
}

async function readJson(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    const json = JSON.parse(await readFile(file, "utf8")) as unknown;
    return typeof json === "object" && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
