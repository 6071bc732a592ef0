import Table from "cli-table3";
import type { ChalkInstance } from "chalk";

const NO_BORDERS = {
  top: "", "top-mid": "", "top-left": "", "top-right": "",
  bottom: "", "bottom-mid": "", "bottom-left": "", "bottom-right": "",
  left: "", "left-mid": "", mid: "", "mid-mid": "", right: "", "right-mid": "", middle: "",
};

/** A borderless table with a bold header row (gh's look), lines without trailing blanks. */
export function renderTable(head: readonly string[], rows: readonly (readonly string[])[], chalk: ChalkInstance): string {
  // style.head/border empty: cli-table3 would otherwise colour through its own detection.
  const table = new Table({
    head: head.map((title) => chalk.bold(title)),
    chars: NO_BORDERS,
    style: { head: [], border: [], "padding-left": 0, "padding-right": 2 },
  });
  // A tab or line break inside a value would break the columns.
  table.push(...rows.map((row) => row.map((cell) => cell.replace(/[\t\r\n]+/g, " "))));
  const lines = table.toString().split("\n").map((line) => line.trimEnd());
  return `${lines.join("\n")}\n`;
}
