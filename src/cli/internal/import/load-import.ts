// The import file read whole (records are small; 1 MB is some 20,000 pets), hashed for the
// Idempotency-Keys, parsed in its format and validated.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { CliContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { formatOfName, readRecords, type ImportFormat } from "./read-records.js";
import { validateRecords, type InvalidRecord, type ValidRecord } from "./validate-records.js";

export interface LoadedImport {
  hash: string;
  valid: ValidRecord[];
  invalid: InvalidRecord[];
}

export async function loadImport(source: string, format: ImportFormat | undefined, ctx: Pick<CliContext, "io">): Promise<LoadedImport> {
  const chosen = format ?? (source === "-" ? "ndjson" : formatOfName(source));
  if (chosen === undefined) throw new UsageError(`cannot tell the format of ${source} from its extension: add --format ndjson, json or csv`);
  const text = source === "-" ? await ctx.io.readStdin() : await readText(source);
  const hash = createHash("sha256").update(text).digest("hex");
  return { hash, ...validateRecords(readRecords(text, chosen)) };
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}
