// The import file formats by name, apart from their parsers: `pets import`'s flags need the names
// at start-up, the parsers (csv-parse among them) load only when a file is read.

export const IMPORT_FORMATS = ["ndjson", "json", "csv"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** The format a file name says (.ndjson/.jsonl, .json, .csv); undefined when it says none. */
export function formatOfName(name: string): ImportFormat | undefined {
  if (/\.(ndjson|jsonl)$/i.test(name)) return "ndjson";
  if (/\.json$/i.test(name)) return "json";
  if (/\.csv$/i.test(name)) return "csv";
  return undefined;
}
