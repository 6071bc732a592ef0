// The one name of a db file. The lock, the journal, the limits file and every rewrite hang off
// this path, so two names of one file (a symlink, a symlinked folder, `..` through one) must
// become the same path, or two servers share a file under two locks.
import { promises as fs } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { isErrnoCode } from "../../support/error-text.js";

/** More links than this in a chain is a loop, as the kernel's own limit (ELOOP) says. */
const MAX_LINKS = 40;

/** The db file has more than one hard link: the lock cannot see the other names. */
export class DbFileLinksError extends Error {
  constructor(
    readonly file: string,
    readonly links: number,
  ) {
    super(
      `the database ${file} has ${links} names (hard links). petstore replaces the file when it writes it, which ` +
        "would split those names into separate databases, and its lock cannot see the other names. Keep one name " +
        `(find / -samefile ${file} 2>/dev/null lists them), or use a symbolic link: petstore follows those`,
    );
    this.name = "DbFileLinksError";
  }
}

/**
 * The absolute path the kernel opens for `path`, symlinks and `..` followed as it follows them
 * (not lexically: `link/../x` is the parent of the link's target). A file that does not exist yet
 * is placed where it will be created: through a dangling symlink to its target, else in the real
 * folder. Writes then go through to the target, and a symlink stays a symlink. Throws
 * DbFileLinksError for a file with other hard links.
 * @example await resolveDbFile("link.json") // "/srv/petstore/data/petstore.json"
 */
export async function resolveDbFile(path: string): Promise<string> {
  const file = await realTarget(path, 0);
  const stats = await fs.stat(file).catch((error: unknown) => {
    if (isErrnoCode(error, "ENOENT")) return undefined;
    throw error;
  });
  if (stats && stats.nlink > 1) throw new DbFileLinksError(file, stats.nlink);
  return file;
}

async function realTarget(path: string, links: number): Promise<string> {
  try {
    return await fs.realpath(path);
  } catch (error) {
    if (!isErrnoCode(error, "ENOENT")) throw error;
  }
  const target = await fs.readlink(path).catch(() => undefined);
  if (target !== undefined) {
    if (links >= MAX_LINKS) throw new Error(`${path}: too many levels of symbolic links`);
    // Joined as text: path.join would fold `..` lexically, and the kernel does not.
    return realTarget(isAbsolute(target) ? target : `${dirname(path)}/${target}`, links + 1);
  }
  // A folder that does not exist either is left for the open to report.
  const folder = await fs.realpath(dirname(path)).catch(() => resolve(dirname(path)));
  return join(folder, basename(path));
}
