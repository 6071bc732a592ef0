// The records of an import file, each with the line it starts on, so every error can point at it.
// Three formats: NDJSON (one object a line), a JSON array, and CSV with a `name,categoryId,status`
// header (read-csv.ts).
import { UsageError } from "../../errors.js";
import type { ImportFormat } from "./formats.js";
import { readCsvRows } from "./read-csv.js";

export { formatOfName, IMPORT_FORMATS, type ImportFormat } from "./formats.js";

/** A record as read, before validation: `value` is whatever the file held at that position. */
export interface RawRecord {
  line: number;
  value: unknown;
}

export function readRecords(text: string, format: ImportFormat): RawRecord[] {
  if (format === "ndjson") return readNdjson(text);
  if (format === "json") return readJsonArray(text);
  return readCsv(text);
}

function readNdjson(text: string): RawRecord[] {
  const records: RawRecord[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (line === "") return;
    try {
      records.push({ line: index + 1, value: JSON.parse(line) });
    } catch {
      // Kept as a record, so validation reports it among the others with its line number.
      records.push({ line: index + 1, value: new SyntaxError(`not JSON: ${line.slice(0, 40)}`) });
    }
  });
  return records;
}

/** A JSON array's elements, with the line each starts on (found by a small scan, not a second parser). */
function readJsonArray(text: string): RawRecord[] {
  if (text.trim() === "") return [];
  let values: unknown;
  try {
    values = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the file is not a JSON array: ${(error as Error).message}`);
  }
  if (!Array.isArray(values)) throw new UsageError("the file is JSON but not an array of pets: use [{...}, ...], or NDJSON");
  const lines = elementStartLines(text);
  return values.map((value, index) => ({ line: lines[index] ?? 1, value }));
}

function elementStartLines(text: string): number[] {
  const starts: number[] = [];
  let depth = 0;
  let line = 1;
  let inString = false;
  let expectElement = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") line++;
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (depth === 1 && expectElement && c !== undefined && !/\s/.test(c) && c !== "]") {
      starts.push(line);
      expectElement = false;
    }
    if (c === '"') inString = true;
    else if (c === "[" || c === "{") {
      depth++;
      if (depth === 1) expectElement = true;
    } else if (c === "]" || c === "}") depth--;
    else if (c === "," && depth === 1) expectElement = true;
  }
  return starts;
}

const CSV_HEADER = ["name", "categoryId", "status"];

function readCsv(text: string): RawRecord[] {
  const rows = readCsvRows(text);
  const header = rows.shift();
  if (header === undefined) return [];
  const names = header.fields.map((field) => field.trim());
  const unknown = names.filter((name) => !CSV_HEADER.includes(name));
  if (!names.includes("name") || !names.includes("categoryId") || unknown.length > 0) {
    throw new UsageError(`the CSV header must name the columns ${CSV_HEADER.join(",")} (status may be left out), got: ${names.join(",")}`);
  }
  return rows.map((row) => ({ line: row.line, value: csvRecord(names, row.fields) }));
}

/** A row's fields as a NewPet-shaped object: categoryId a number when it reads as one; an empty status left out. */
function csvRecord(names: string[], fields: string[]): unknown {
  if (fields.length !== names.length) return new SyntaxError(`${fields.length} fields where the header has ${names.length}`);
  const record: Record<string, unknown> = {};
  names.forEach((name, index) => {
    const field = fields[index] ?? "";
    if (name === "categoryId") record[name] = /^\s*\d+\s*$/.test(field) ? Number(field) : field;
    else if (!(name === "status" && field === "")) record[name] = field;
  });
  return record;
}
