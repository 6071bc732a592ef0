import { randomBytes } from "node:crypto";
import { link, open, rename, stat, unlink, writeFile } from "node:fs/promises";
import { isErrnoCode, messageOf } from "../support/error-text.js";
import { StoreLockedError } from "./errors.js";

export interface LockOptions {
  /** Told when a stale lock (dead pid, or not a pid at all) is taken over, or cannot be removed. */
  warn: (message: string) => void;
}

export interface FileLock {
  /** `<db>.lock` */
  readonly path: string;
  /** Removes the lock file if it is still ours. Idempotent; warns instead of throwing. */
  release(): Promise<void>;
}

interface Holder {
  ino: number;
  pid: number | undefined;
  text: string;
}

const ATTEMPTS = 5;

// Why not proper-lockfile (docs/server.md, "The db lock"): its lock outlives a crashed server by its
// stale time and can be judged stale while our event loop is busy; a holder's pid is neither.

/**
 * Takes `<file>.lock` for this process (`file` resolved first: see resolveDbFile), or throws StoreLockedError naming the live holder.
 * The lock file is hard-linked from a temporary one that already holds our pid, so no
 * other process ever sees it empty and mistakes it for garbage.
 */
export async function acquireLock(file: string, { warn }: LockOptions): Promise<FileLock> {
  const path = `${file}.lock`;
  const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
  await writeFile(temp, `${process.pid}\n`, { flag: "wx", mode: 0o600 });
  try {
    const { ino } = await stat(temp);
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (await tryLink(temp, path)) return ownLock(path, ino, warn);
      const holder = await readHolder(path);
      if (!holder) continue;
      if (holder.pid !== undefined && isAlive(holder.pid)) throw new StoreLockedError(file, holder.pid);
      if (await removeIfSame(path, holder.ino)) warn(staleMessage(path, holder));
    }
    throw new Error(`cannot take the lock ${path}: other processes keep changing it`);
  } finally {
    await unlink(temp).catch(() => {});
  }
}

async function tryLink(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (error) {
    if (isErrnoCode(error, "EEXIST")) return false;
    throw error;
  }
}

/** The lock file's inode and pid, read through one handle so both belong to the same file. */
async function readHolder(path: string): Promise<Holder | undefined> {
  let handle;
  try {
    handle = await open(path, "r");
  } catch (error) {
    if (isErrnoCode(error, "ENOENT")) return undefined;
    throw error;
  }
  try {
    const [{ ino }, text] = await Promise.all([handle.stat(), handle.readFile("utf8")]);
    return { ino, pid: parsePid(text), text };
  } finally {
    await handle.close();
  }
}

function parsePid(text: string): number | undefined {
  const trimmed = text.trim();
  const pid = Number(trimmed);
  return /^\d{1,10}$/.test(trimmed) && pid > 0 && pid <= 0x7fffffff ? pid : undefined;
}

/** Signal 0 tests for existence; EPERM means it exists but belongs to another user. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if (isErrnoCode(error, "EPERM")) return true;
    if (isErrnoCode(error, "ESRCH")) return false;
    throw error;
  }
}

/**
 * Removes the stale lock only if it is still the file we judged (same inode): renaming is
 * atomic, so two processes taking over at once cannot both delete a fresh lock.
 */
async function removeIfSame(path: string, ino: number): Promise<boolean> {
  const aside = `${path}.stale.${process.pid}.${randomBytes(4).toString("hex")}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if (isErrnoCode(error, "ENOENT")) return false;
    throw error;
  }
  const same = (await stat(aside)).ino === ino;
  if (!same) await link(aside, path).catch(() => {});
  await unlink(aside);
  return same;
}

function staleMessage(path: string, holder: Holder): string {
  if (holder.pid !== undefined) return `took over the stale lock ${path}: its process (pid ${holder.pid}) is gone`;
  return `took over the lock ${path}: its content ${JSON.stringify(holder.text.slice(0, 40))} is not a pid`;
}

function ownLock(path: string, ino: number, warn: (message: string) => void): FileLock {
  let released = false;
  return {
    path,
    async release() {
      if (released) return;
      released = true;
      try {
        const holder = await readHolder(path);
        if (holder?.ino === ino && holder.pid === process.pid) await unlink(path);
      } catch (error) {
        // A lock left behind names a dead pid: the next start takes it over.
        warn(`cannot remove the lock ${path}: ${messageOf(error)}`);
      }
    },
  };
}
