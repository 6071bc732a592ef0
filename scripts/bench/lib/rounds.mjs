// Summaries of repeated load runs, for rows that compare runs taken in alternating rounds.

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The run whose rate is the median of `runs` (the lower middle one of an even count). */
export function medianRun(runs) {
  return [...runs].sort((a, b) => a.rps - b.rps)[(runs.length - 1) >> 1];
}

/** The run with the most requests a second. */
export function bestRun(runs) {
  return runs.reduce((best, run) => (run.rps > best.rps ? run : best));
}
