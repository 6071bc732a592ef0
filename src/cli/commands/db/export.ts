// node:fs/promises through fs.promises, read when first used (see import.ts).
import { promises as fs } from "node:fs";
import { Command } from "commander";
import type { CliContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { withExamples } from "../../internal/help.js";
import { SERVE_DEFAULTS } from "../../settings.js";

export interface ExportOptions {
  db: string;
  /** A new file to write instead of stdout. */
  output?: string;
}

export function exportCommand(ctx: CliContext): Command {
  const command = new Command("export")
    .description("Write a stopped store's data as NDJSON: a header, one line per pet, key (with its hash), order, webhook endpoint (with its signing secret) and delivery, an end line")
    .option("--db <file|url>", `database file or postgres:// URL (env PETSTORE_DB, default ${SERVE_DEFAULTS.db})`)
    .option("-o, --output <file>", "a new file (mode 0600: it holds key hashes and webhook secrets) instead of stdout; an existing file is not overwritten")
    .action(async (flags: { db?: string; output?: string }) => {
      await runExport({ db: flags.db ?? ctx.env.PETSTORE_DB ?? SERVE_DEFAULTS.db, output: flags.output }, ctx);
    });
  return withExamples(
    command,
    "petstore db export --db petstore.json --output petstore.ndjson",
    "petstore db export --db postgres://petstore@db/petstore | gzip > export.ndjson.gz",
  );
}

export async function runExport(options: ExportOptions, ctx: CliContext): Promise<void> {
  const { readStoreData } = await import("../../../store/transfer/store-data.js");
  const { exportLines } = await import("../../../store/transfer/export-format.js");
  const data = await readStoreData(options.db, { warn: (message) => ctx.io.stderr.write(`Warning: ${message}\n`) });
  if (options.output === undefined) {
    for (const line of exportLines(data)) ctx.io.stdout.write(line);
    return;
  }
  await writeNewFile(options.output, exportLines(data));
}

const CHUNK_CHARS = 1 << 20;

/** As `db backup` writes: created 0600, never over a file, on disk before it returns (one cut short has no end line, which an import refuses). */
async function writeNewFile(path: string, lines: Iterable<string>): Promise<void> {
  const file = await fs.open(path, "wx", 0o600).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") throw new UsageError(`${path} exists: choose a new file, an export never overwrites one`);
    throw error;
  });
  try {
    // In chunks: one write per line would be a system call per pet.
    let chunk = "";
    for (const line of lines) {
      chunk += line;
      if (chunk.length < CHUNK_CHARS) continue;
      await file.write(chunk);
      chunk = "";
    }
    await file.write(chunk);
    await file.sync();
  } finally {
    await file.close();
  }
}
