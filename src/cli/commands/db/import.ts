// node:fs/promises through fs.promises, read when first used: loading it at start-up costs
// node:stream and node:readline (the CLI bundle evaluates every import when it starts).
import { promises as fs } from "node:fs";
import { Command } from "commander";
import type { CliContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { withExamples } from "../../internal/help.js";

export interface ImportOptions {
  file: string;
  db: string;
}

export function importCommand(ctx: CliContext): Command {
  const command = new Command("import")
    .description("Load an export into a new or empty store (file or postgres://), keeping ids, key hashes and order states")
    .argument("<file>", "the NDJSON written by `petstore db export` (- for stdin)")
    .requiredOption("--db <file|url>", "the target: a new db file or an empty PostgreSQL database")
    .action(async (file: string, flags: { db: string }) => {
      await runImport({ file, db: flags.db }, ctx);
    });
  return withExamples(command, "petstore db import petstore.ndjson --db postgres://petstore@db/petstore");
}

/** Parses the whole export first, so a file of another version or cut short writes nothing. */
export async function runImport(options: ImportOptions, ctx: CliContext): Promise<void> {
  const { parseExport, describeCounts } = await import("../../../store/transfer/export-format.js");
  const { importVerified } = await import("../../../store/transfer/import-verified.js");
  const text = await fs.readFile(options.file === "-" ? "/dev/stdin" : options.file, "utf8").catch((error: unknown) => {
    throw new UsageError(`cannot read ${options.file}: ${error instanceof Error ? error.message : String(error)}`);
  });
  const data = parseExport(text);
  const counts = await importVerified(options.db, data, { warn: (message) => ctx.io.stderr.write(`Warning: ${message}\n`) });
  ctx.io.stderr.write(`Imported ${describeCounts(counts)} into ${redacted(options.db)}.\n`);
}

function redacted(db: string): string {
  return db.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
}
