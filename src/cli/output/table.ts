import { stripVTControlCharacters } from "node:util";
import Table from "cli-table3";
import type { ChalkInstance } from "chalk";

const NO_BORDERS = {
  top: "", "top-mid": "", "top-left": "", "top-right": "",
  bottom: "", "bottom-mid": "", "bottom-left": "", "bottom-right": "",
  left: "", "left-mid": "", mid: "", "mid-mid": "", right: "", "right-mid": "", middle: "",
};
const GAP = 2;
/** A column is never cut below this (or its header): "Rex…" still says something. */
const MIN_WIDTH = 4;

export interface TableFit {
  /** The terminal's width; no limit when undefined. */
  width: number | undefined;
  /** Column indexes, the first to be cut first (names before ids and states). */
  shrinkOrder: readonly number[];
}

/**
 * A borderless table with a bold header row (gh's look), lines without trailing blanks. Given a
 * width, columns are cut with "…" (never wrapped) in `shrinkOrder` until the table fits.
 */
export function renderTable(head: readonly string[], rows: readonly (readonly string[])[], chalk: ChalkInstance, fit?: TableFit): string {
  // A tab or line break inside a value would break the columns.
  const cells = rows.map((row) => row.map((cell) => cell.replace(/[\t\r\n]+/g, " ")));
  const widths = fit?.width === undefined ? undefined : fittedWidths(head, cells, fit.width, fit.shrinkOrder);
  // style.head/border empty: cli-table3 would otherwise colour through its own detection.
  const table = new Table({
    head: head.map((title) => chalk.bold(title)),
    chars: NO_BORDERS,
    style: { head: [], border: [], "padding-left": 0, "padding-right": GAP },
    ...(widths === undefined ? {} : { colWidths: widths.map((width) => width + GAP), wordWrap: false, truncate: "…" }),
  });
  table.push(...cells);
  const lines = table.toString().split("\n").map((line) => line.trimEnd());
  return `${lines.join("\n")}\n`;
}

/** Each column's width once cut to fit `total`, or undefined when the table fits as it is. */
export function fittedWidths(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  total: number,
  shrinkOrder: readonly number[],
): number[] | undefined {
  const widths = head.map((title, column) => Math.max(visible(title), ...rows.map((row) => visible(row[column] ?? ""))));
  // The last column's gap is trimmed from every line.
  let excess = widths.reduce((sum, width) => sum + width + GAP, -GAP) - total;
  if (excess <= 0) return undefined;
  for (const column of shrinkOrder) {
    const floor = Math.max(MIN_WIDTH, visible(head[column] ?? ""));
    const cut = Math.min(excess, Math.max(0, (widths[column] ?? 0) - floor));
    widths[column] = (widths[column] ?? 0) - cut;
    excess -= cut;
    if (excess <= 0) break;
  }
  return widths;
}

function visible(text: string): number {
  return [...stripVTControlCharacters(text)].length;
}
