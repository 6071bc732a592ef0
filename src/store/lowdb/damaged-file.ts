// A db file or journal that cannot be read is met at start-up, often with a service down: the
// message says what is wrong in words (never the file's bytes) and how to go on.
import { isUtf8 } from "node:buffer";
import { messageOf } from "../../support/error-text.js";
import { jsonSyntaxProblem } from "../../support/json-file.js";
import { StoreCorruptError } from "../errors.js";
import { NewerStoreFileError } from "./file-schema.js";

/**
 * Why the db file's bytes are not JSON, without echoing them (they may be binary, or hold escape
 * sequences a terminal would obey).
 */
export function unparsableReason(bytes: Buffer, error: unknown): string {
  if (bytes.length === 0) return "it is empty (0 bytes), and a petstore database never is: it was cut short or made by another program";
  if (!isUtf8(bytes)) return `it holds binary data, not JSON text (${bytes.length} bytes)`;
  if (endsTooSoon(bytes, messageOf(error))) return `its JSON stops in the middle (${bytes.length} bytes): the file was cut short`;
  return `it is not valid JSON (${jsonSyntaxProblem(error)}${lineAndColumn(bytes, messageOf(error))})`;
}

/** The parser ran out of text (V8 says so, or puts the fault at the very end): a write cut short. */
function endsTooSoon(bytes: Buffer, message: string): boolean {
  if (/end of JSON input/.test(message)) return true;
  const position = /at position (\d+)/.exec(message)?.[1];
  return position !== undefined && Number(position) >= bytes.toString("utf8").trimEnd().length;
}

/** V8 says "at position N"; a person opens the file at a line and column. */
function lineAndColumn(bytes: Buffer, message: string): string {
  const position = /at position (\d+)/.exec(message)?.[1];
  if (position === undefined || / \(line \d+ column \d+\)/.test(message)) return "";
  const before = bytes.toString("utf8").slice(0, Number(position));
  const line = before.split("\n").length;
  return `, line ${line} column ${before.length - before.lastIndexOf("\n")}`;
}

/** The same error with what to do about it, for the db file `dbFile` or its journal. */
export function withAdvice(error: StoreCorruptError, dbFile: string): StoreCorruptError {
  if (error.advice !== undefined) return error;
  const advice = error.journal ? journalAdvice(dbFile, error.file) : dbFileAdvice(dbFile, error.cause);
  return new StoreCorruptError(error.file, error.reason, { journal: error.journal, advice, cause: error.cause });
}

const restore = (dbFile: string) =>
  `restore a backup: stop petstore, run \`petstore db restore <backup> --db ${dbFile}\` ` +
  `(it moves the current files aside), and start it again`;

function dbFileAdvice(dbFile: string, cause: unknown): string {
  if (cause instanceof NewerStoreFileError) {
    return `The file is left as it is. To go on, run a petstore release that reads format version ${cause.version}, or ${restore(dbFile)}.`;
  }
  return (
    `The file is left as it is. To go on, ${restore(dbFile)}. ` +
    `With no backup, move it aside (mv ${dbFile} ${dbFile}.damaged) to start with an empty database.`
  );
}

function journalAdvice(dbFile: string, journal: string): string {
  return (
    `Both files are left as they are. The journal holds the changes made since ${dbFile} was last rewritten. ` +
    `To go on, ${restore(dbFile)}; or keep the database as it was last rewritten and lose those changes: ` +
    `mv ${journal} ${journal}.damaged`
  );
}
