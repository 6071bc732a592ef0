// The bench's one table, and the same rows as JSON.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * A row compares a figure with a baseline from the same run. `goal` is [">=" | "<=" | "<", bound]
 * applied to the ratio (or, with `absolute`, to the figure itself); rows without a goal inform.
 */
export function row({ id, scenario, figure, unit, baseline, baselineName, goal, absolute = false, inverse = false, problem, ratio: given }) {
  // `inverse` for costs (lower is better), so that the ratio reads like a speed ratio. A `ratio`
  // given is one measured otherwise (the median of paired rounds), not the figure over the baseline.
  const ratio = given ?? (baseline === undefined ? undefined : inverse ? baseline / figure : figure / baseline);
  const checked = absolute ? figure : ratio;
  let pass = goal === undefined || checked === undefined ? null : compare(checked, goal);
  if (problem) pass = false;
  return { id, scenario, figure, unit, baseline, baselineName, ratio, goal: goal && goalText(goal, absolute, unit), pass, problem };
}

function compare(value, [operator, bound]) {
  if (!Number.isFinite(value)) return false;
  if (operator === ">=") return value >= bound;
  if (operator === "<=") return value <= bound;
  return value < bound;
}

function goalText([operator, bound], absolute, unit) {
  return absolute ? `${operator} ${bound} ${unit}` : `ratio ${operator} ${bound}`;
}

/** The table as lines of text, for the terminal and for docs/performance.md. */
export function formatTable(rows) {
  const header = ["#", "scenario", "figure", "baseline", "ratio", "goal", "result"];
  const lines = rows.map((r) => [
    r.id,
    r.scenario,
    `${fmt(r.figure)} ${r.unit}`,
    r.baseline === undefined ? "" : `${fmt(r.baseline)} ${r.unit} (${r.baselineName})`,
    r.ratio === undefined ? "" : r.ratio.toFixed(2),
    r.goal ?? "",
    r.pass === null ? "info" : r.pass ? "pass" : r.problem ? `FAIL: ${r.problem}` : "FAIL",
  ]);
  const widths = header.map((_, i) => Math.max(header[i].length, ...lines.map((line) => String(line[i]).length)));
  const render = (cells) => `| ${cells.map((cell, i) => String(cell).padEnd(widths[i])).join(" | ")} |`;
  return [render(header), render(widths.map((w) => "-".repeat(w))), ...lines.map(render)].join("\n");
}

function fmt(value) {
  if (!Number.isFinite(value)) return "n/a";
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString("en-US");
  if (Math.abs(value) >= 100) return value.toFixed(0);
  return value.toFixed(value >= 10 ? 1 : 2);
}

export async function writeResults(path, results) {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(results, null, 2)}\n`);
}
