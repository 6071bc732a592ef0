/** Tab-separated lines, no header, no colour: one record a line for `cut`, `awk` and `while read`. */
export function renderTsv(rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return rows.map((row) => `${row.map(cell).join("\t")}\n`).join("");
}

// Tabs and line breaks inside a value would split the record; nulls are empty fields.
function cell(value: string | number | null | undefined): string {
  return value === null || value === undefined ? "" : String(value).replace(/[\t\r\n]+/g, " ");
}
