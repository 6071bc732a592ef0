// The formats of `pets export`, each written page by page: NDJSON and CSV read back by
// `pets import` (CSV written by csv-stringify, RFC 4180) and a JSON array; none carries ids, so
// all three import.
import { stringify } from "csv-stringify/sync";
import type { Pet } from "../../contract/values.js";
import type { TextSink } from "../context.js";
import { jsonArrayWriter } from "./json-stream.js";

export const EXPORT_FORMATS = ["ndjson", "csv", "json"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface PetWriter {
  write(pets: readonly Pet[]): void;
  end(): void;
}

export function petWriter(format: ExportFormat, sink: TextSink): PetWriter {
  if (format === "json") {
    const array = jsonArrayWriter(sink);
    return { write: (pets) => array.write(pets.map(importable)), end: () => array.end() };
  }
  if (format === "ndjson") {
    return { write: (pets) => sink.write(pets.map((pet) => `${JSON.stringify(importable(pet))}\n`).join("")), end: () => {} };
  }
  sink.write(csv([["name", "categoryId", "status"]]));
  return {
    write: (pets) => sink.write(csv(pets.map((pet) => [pet.name, pet.categoryId, pet.status]))),
    end: () => {},
  };
}

/** What import takes back: a NewPet, without the id (the other store assigns its own). */
function importable(pet: Pet): Omit<Pet, "id"> {
  return { name: pet.name, categoryId: pet.categoryId, status: pet.status };
}

/**
 * Rows of CSV. Beyond what csv-stringify quotes (commas, quotes, line feeds), a lone CR and a
 * value that starts or ends with a blank are quoted too: spreadsheets end a row at a CR and trim.
 */
function csv(rows: (string | number)[][]): string {
  return stringify(rows, { record_delimiter: "\n", quoted_match: /\r|^\s|\s$/ });
}
