// CSV rows with the line each starts on, read by csv-parse (RFC 4180: quoted commas, quotes and
// line breaks; a BOM, as spreadsheets write one, is dropped). Records end at LF or CRLF only, so
// a lone CR is data, as `pets export` writes it.
import { parse } from "csv-parse/sync";
import { UsageError } from "../../errors.js";

export interface CsvRow {
  line: number;
  fields: string[];
}

interface RecordWithInfo {
  record: string[];
  info: { bytes: number };
}

const LF = 0x0a;
const CR = 0x0d;

/** Every non-blank row; a file CSV cannot read (a quote never closed) is a usage error naming the line. */
export function readCsvRows(text: string): CsvRow[] {
  const bytes = Buffer.from(text, "utf8");
  let parsed: RecordWithInfo[];
  try {
    const options = { bom: true, info: true, relax_quotes: true, relax_column_count: true, skip_empty_lines: true, record_delimiter: ["\r\n", "\n"] };
    // With `info`, each row comes as its record and where it ended; the types know only plain rows.
    parsed = parse(bytes, options) as unknown as RecordWithInfo[];
  } catch (error) {
    throw new UsageError(`the file is not valid CSV: ${(error as Error).message}`);
  }
  // csv-parse says where each record ends (in bytes); its start line is counted here, past the
  // blank lines before it.
  let line = 1;
  let at = 0;
  return parsed.map(({ record, info }) => {
    for (; at < info.bytes && (bytes[at] === LF || bytes[at] === CR); at++) if (bytes[at] === LF) line++;
    const start = line;
    for (; at < info.bytes; at++) if (bytes[at] === LF) line++;
    return { line: start, fields: record };
  });
}
