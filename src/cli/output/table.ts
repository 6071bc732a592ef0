// gh's borderless tables: columns padded and cut by display width (text-width.ts), so CJK and
// emoji names keep the columns aligned and a cut never splits a grapheme.
import { stripVTControlCharacters } from "node:util";
import type { ChalkInstance } from "chalk";
import { cutToWidth, displayWidth, padToWidth } from "./text-width.js";

const GAP = 2;
/** A column is never cut below this (or its header): "Rex…" still says something. */
const MIN_WIDTH = 4;
/** Columns are dropped rather than the first one to cut (the name) falling below this. */
const READABLE_WIDTH = 12;

export interface TableFit {
  /** The terminal's width; no limit when undefined. */
  width: number | undefined;
  /** Column indexes, the first to be cut first (names before ids and states). */
  shrinkOrder: readonly number[];
  /**
   * Column indexes left out, first to last, while the table cannot fit even with every column
   * of `shrinkOrder` cut to its floor: a date cut to "2026-1…" says nothing, so a narrow
   * terminal gets fewer columns rather than a wrapped or meaningless table (`--json` has all).
   */
  dropOrder?: readonly number[];
}

/**
 * A borderless table with a bold header row (gh's look), lines without trailing blanks. Given a
 * width, columns are cut with "…" (never wrapped) in `shrinkOrder` until the table fits.
 */
export function renderTable(head: readonly string[], rows: readonly (readonly string[])[], chalk: ChalkInstance, fit?: TableFit): string {
  // A tab or line break inside a value would break the columns.
  let cells = rows.map((row) => row.map((cell) => cell.replace(/[\t\r\n]+/g, " ")));
  if (fit?.width !== undefined && fit.dropOrder !== undefined) {
    const kept = keptColumns(head, cells, fit.width, fit.shrinkOrder, fit.dropOrder);
    if (kept.length < head.length) {
      const pick = <T>(row: readonly T[]) => kept.map((column) => row[column]!);
      head = pick(head);
      cells = cells.map(pick);
      fit = { width: fit.width, shrinkOrder: fit.shrinkOrder.filter((c) => kept.includes(c)).map((c) => kept.indexOf(c)) };
    }
  }
  const widths = (fit?.width === undefined ? undefined : fittedWidths(head, cells, fit.width, fit.shrinkOrder)) ?? naturalWidths(head, cells);
  const line = (row: readonly string[], paint: (text: string) => string = (text) => text) =>
    row.map((cell, column) => padToWidth(paint(fitted(cell, widths[column] ?? 0)), (widths[column] ?? 0) + GAP)).join("").trimEnd();
  return `${[line(head, (text) => chalk.bold(text)), ...cells.map((row) => line(row))].join("\n")}\n`;
}

/** A cell within `width` columns: as it is when it fits, else cut with "…" (its colour dropped: names are not coloured). */
function fitted(cell: string, width: number): string {
  return displayWidth(cell) <= width ? cell : cutToWidth(stripVTControlCharacters(cell), width);
}

/**
 * The columns that stay: all of them, unless even with every column of `shrinkOrder` at its
 * floor the table is wider than `total`; then columns go in `dropOrder` until it fits.
 */
export function keptColumns(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  total: number,
  shrinkOrder: readonly number[],
  dropOrder: readonly number[],
): number[] {
  const natural = naturalWidths(head, rows);
  const narrowest = natural.map((width, column) => {
    if (!shrinkOrder.includes(column)) return width;
    const floor = column === shrinkOrder[0] ? Math.max(READABLE_WIDTH, floorOf(head[column] ?? "")) : floorOf(head[column] ?? "");
    return Math.min(width, floor);
  });
  const kept = head.map((_, column) => column);
  const width = () => kept.reduce((sum, column) => sum + narrowest[column]! + GAP, -GAP);
  for (const column of dropOrder) {
    if (width() <= total) break;
    kept.splice(kept.indexOf(column), 1);
  }
  return kept;
}

/** Each column's width once cut to fit `total`, or undefined when the table fits as it is. */
export function fittedWidths(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  total: number,
  shrinkOrder: readonly number[],
): number[] | undefined {
  const widths = naturalWidths(head, rows);
  // The last column's gap is trimmed from every line.
  let excess = widths.reduce((sum, width) => sum + width + GAP, -GAP) - total;
  if (excess <= 0) return undefined;
  for (const column of shrinkOrder) {
    const floor = floorOf(head[column] ?? "");
    const cut = Math.min(excess, Math.max(0, (widths[column] ?? 0) - floor));
    widths[column] = (widths[column] ?? 0) - cut;
    excess -= cut;
    if (excess <= 0) break;
  }
  return widths;
}

function naturalWidths(head: readonly string[], rows: readonly (readonly string[])[]): number[] {
  return head.map((title, column) => Math.max(visible(title), ...rows.map((row) => visible(row[column] ?? ""))));
}

function floorOf(title: string): number {
  return Math.max(MIN_WIDTH, visible(title));
}

function visible(text: string): number {
  return displayWidth(text);
}
