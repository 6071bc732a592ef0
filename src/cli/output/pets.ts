import type { Pet } from "../../contract/values.js";
import { colorStatus, colorsFor } from "./colors.js";
import { renderJson } from "./json.js";
import { safeLine } from "./safe-text.js";
import { outputMode, type OutStream } from "./stream.js";
import { renderTable } from "./table.js";
import { renderTsv } from "./tsv.js";

const HEAD = ["ID", "NAME", "CATEGORY", "STATUS"];

/** A list of pets: a table on a TTY, tab-separated `id name categoryId status` otherwise, or a JSON array. */
export function printPets(pets: readonly Pet[], stream: OutStream, options: { json: boolean }): void {
  const mode = outputMode(options.json, stream);
  if (mode === "json") stream.write(renderJson(pets));
  else if (mode === "tsv") stream.write(renderTsv(pets.map((pet) => [pet.id, pet.name, pet.categoryId, pet.status])));
  else if (pets.length > 0) stream.write(petTable(pets, stream));
}

/** One pet, as `pets list` would show it; with --json the Pet object itself. */
export function printPet(pet: Pet, stream: OutStream, options: { json: boolean }): void {
  if (options.json) stream.write(renderJson(pet));
  else printPets([pet], stream, options);
}

function petTable(pets: readonly Pet[], stream: OutStream): string {
  const chalk = colorsFor(stream);
  // Names are free text from the server: no escape sequence reaches the terminal (safe-text.ts).
  const rows = pets.map((pet) => [String(pet.id), safeLine(pet.name, Number.POSITIVE_INFINITY), String(pet.categoryId), colorStatus(chalk, safeLine(pet.status, 40) as Pet["status"])]);
  // Names are cut first: an id or a status cut short would be useless.
  return renderTable(HEAD, rows, chalk, { width: stream.columns, shrinkOrder: [1] });
}
