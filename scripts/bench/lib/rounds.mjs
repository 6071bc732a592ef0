// Load runs taken in turns, and summaries of them, for rows that compare servers measured in
// alternating rounds.
import { load } from "./load.mjs";

/** One load run in a line of the log. */
export function summary(result) {
  const cpu = Number.isFinite(result.cpuUsPerRequest) ? `, server CPU ${result.cpuUsPerRequest.toFixed(1)} µs/req` : "";
  return `${result.rps.toFixed(0)} req/s, p99 ${result.p99} ms${cpu}${result.problem ? ` (${result.problem})` : ""}`;
}

/**
 * Each of `targets` ({ name: load options }) warmed up, then run for the plan's seconds once a
 * round, in `rounds` rounds; with `turn` the order is reversed every other round, so that no
 * target always follows the same one. Every run is kept in ctx.runs under `runsKey(name)`.
 * Returns the rounds, each { name: run }.
 */
export async function takeTurns(ctx, targets, { rounds, turn = false, runsKey }) {
  const { plan, log } = ctx;
  for (const [name, target] of Object.entries(targets)) {
    log(`warming up ${name}`);
    await load({ ...target, seconds: plan.warmupSeconds });
  }
  const taken = [];
  for (let round = 0; round < rounds; round++) {
    const names = Object.keys(targets);
    if (turn && round % 2 === 1) names.reverse();
    const results = {};
    for (const name of names) {
      results[name] = await load({ ...targets[name], seconds: plan.seconds });
      log(`round ${round + 1} ${name}: ${summary(results[name])}`);
      (ctx.runs[runsKey(name)] ??= []).push(results[name]);
    }
    taken.push(results);
  }
  return taken;
}

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
