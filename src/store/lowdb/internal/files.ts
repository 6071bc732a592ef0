import { readdir, rm, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** Writes all of `bytes` at `position`: a write the kernel cut short (file size limit) is continued, or fails. */
export async function writeAll(handle: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, position + done);
    done += bytesWritten;
  }
}

/**
 * Deletes the temporary files a killed writer of `file` left beside it: writeFileAtomic's
 * `<file>.<pid>.<n>.tmp`, and the fixed `<file>.tmp` of earlier versions. Only the lock holder
 * writes `file`, so under the lock no such file can belong to a live write. Other files beside the
 * db (the rate-limit counters' own temporary files included) are left alone.
 */
export async function removeLeftoverTemps(file: string): Promise<string[]> {
  const base = basename(file);
  const leftover = new RegExp(`^${escapeRegExp(base)}(\\.\\d+\\.\\d+)?\\.tmp$`);
  const names = (await readdir(dirname(file))).filter((name) => leftover.test(name));
  await Promise.all(names.map((name) => rm(join(dirname(file), name), { force: true })));
  return names;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
