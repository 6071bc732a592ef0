// node:fs/promises through fs.promises, read when first used (see import.ts).
import { constants, promises as fs } from "node:fs";
import { Command } from "commander";
import type { CliContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { withExamples } from "../../internal/help.js";

export interface RestoreOptions {
  backup: string;
  db: string;
}

export function restoreCommand(ctx: CliContext): Command {
  const command = new Command("restore")
    .description("Put a backup in place of a stopped store's db file; the current db and journal are moved aside, never deleted")
    .argument("<backup-file>", "a file written by `petstore db backup`")
    .requiredOption("--db <file>", "the db file to restore (its server stopped)")
    .action(async (backup: string, flags: { db: string }) => {
      await runRestore({ backup, db: flags.db }, ctx);
    });
  return withExamples(command, "petstore db restore /var/backups/petstore/petstore-2026-11-23.json --db /var/lib/petstore/petstore.json");
}

export async function runRestore(options: RestoreOptions, ctx: CliContext): Promise<void> {
  const { isPostgresUrl } = await import("../../../store/transfer/store-data.js");
  if (isPostgresUrl(options.db)) {
    throw new UsageError(
      "db restore puts a backup file in place of a db file; a PostgreSQL store is restored from a dump: " +
        "`petstore db import <export> --db <url>` into an empty database, or pg_restore",
    );
  }
  await checkReadable(options.backup);
  const { restoreFile, BackupMissingError } = await import("../../../store/lowdb/restore-file.js");
  const warn = (message: string) => ctx.io.stderr.write(`Warning: ${message}\n`);
  const result = await restoreFile(options.backup, options.db, { warn, now: () => new Date(ctx.now()) }).catch((error: unknown) => {
    throw error instanceof BackupMissingError ? new UsageError(error.message) : error;
  });
  const { stderr } = ctx.io;
  if (result.movedDb) stderr.write(`Moved the current database aside to ${result.movedDb}.\n`);
  else stderr.write(`There was no database at ${result.db}.\n`);
  if (result.movedJournal) stderr.write(`Moved its journal aside to ${result.movedJournal}.\n`);
  const { countsOf, describeCounts } = await import("../../../store/transfer/export-format.js");
  stderr.write(`Restored ${describeCounts(countsOf(result.data))} from ${options.backup} to ${result.db}.\n`);
}

/** A backup that is missing, a folder or unreadable is a mistake in the command line, not a damaged file. */
async function checkReadable(backup: string): Promise<void> {
  const problem = await fs.stat(backup).then(
    async (stats) => (stats.isFile() ? fs.access(backup, constants.R_OK).then(() => undefined, () => "it cannot be read (permission denied)") : "it is not a file"),
    (error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? "there is no such file" : `it cannot be read (${error.code ?? error.message})`),
  );
  if (problem) throw new UsageError(`cannot restore from ${backup}: ${problem}`);
}
