// The soak's verdict: each check with its figure and its limit, printed as one table.
import { rssGrowth } from "./rss-growth.mjs";

const RSS_GROWTH_LIMIT = 0.1;
const FD_GROWTH_LIMIT = 5;
const LOOP_P99_LIMIT_MS = 20;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.floor((sorted.length - 1) / 2)];
};
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
};

/** The run with its warm-up decided (rss-growth.mjs): `warmupMs`, and `memory`, the RSS comparison. */
export function settleWarmup(result) {
  const memory = rssGrowth(result.samples, { readyMs: result.readyMs, durationMs: result.elapsedMs });
  return { ...result, warmupMs: memory.warmupMs, memory };
}

/** Every check of the issue, from the run's samples and counts: [{ name, figure, limit, ok }]. */
export function checkRun(result) {
  const steady = result.samples.filter((sample) => sample.at >= result.warmupMs);
  const { memory } = result;
  // Beside it, not checked: the same ends less the new space each sample was paired with.
  const lessYoung = (end) => end.rssKb - end.youngKb;
  const memoryFigure = `${pct(memory.growth)} (${mib(memory.start.rssKb)} → ${mib(memory.end.rssKb)} MiB, medians of ${memory.start.samples} and ${memory.end.samples} samples with new space at ${mib(memory.youngKb)} MiB)`;
  // Keep-alive connections open and close all along: a leak shows as the highest count of the
  // last third of the run above the highest of the first third.
  const fds = steady.map((sample) => sample.fds);
  const third = Math.max(1, Math.floor(fds.length / 3));
  const fdFirst = Math.max(...fds.slice(0, third));
  const fdLast = Math.max(...fds.slice(-third));
  const fdGrowth = fdLast - fdFirst;
  const windows = result.loopWindows.filter((window) => window.at > result.warmupMs && window.p99 !== undefined).map((window) => window.p99 * 1000);
  const worstLoop = Math.max(...windows);
  const { stats, verification, log, events } = result;
  const created = result.book.creates;
  return [
    check(
      "RSS growth after warm-up",
      memory.comparable ? memoryFigure : `not comparable: ${memory.why}`,
      `< ${pct(RSS_GROWTH_LIMIT)}`,
      memory.comparable && memory.growth < RSS_GROWTH_LIMIT,
    ),
    info("  the same less V8's young generation", `${pct(lessYoung(memory.end) / lessYoung(memory.start) - 1)} (${mib(lessYoung(memory.start))} → ${mib(lessYoung(memory.end))} MiB)`),
    check("open descriptors, highest of first → last third", `${fdFirst} → ${fdLast} (min ${Math.min(...fds)}, max ${Math.max(...fds)})`, `growth ≤ ${FD_GROWTH_LIMIT}`, fdGrowth <= FD_GROWTH_LIMIT),
    check(
      "event-loop delay p99, worst 10 s window",
      `${worstLoop.toFixed(1)} ms (median window ${median(windows).toFixed(1)} ms, ${windows.length} windows)`,
      `< ${LOOP_P99_LIMIT_MS} ms`,
      windows.length > 0 && worstLoop < LOOP_P99_LIMIT_MS,
    ),
    check("5xx answers", String(stats.fiveXx), "0", stats.fiveXx === 0),
    check("answers other than expected (incl. network errors)", String(stats.unexpected.length), "0", stats.unexpected.length === 0),
    check("429s of the tiny key (provoked)", `${stats.tiny429} (served ${stats.tinyServed})`, "> 0", stats.tiny429 > 0),
    check("error lines in the server log (level ≥ 50)", String(log.errors.length), "0", log.errors.length === 0),
    check("event stream", `${events.events} events, ${events.created} pet.created for ${created} creates, ended by server ${events.endedByServer}`, "open, every create seen", events.endedByServer === 0 && !events.error && events.created === created),
    check("acknowledged records at the end", `${verification.pets} pets, ${verification.deleted} deletes, ${verification.orders} orders; ${verification.problems.length} wrong`, "0 wrong", verification.problems.length === 0),
    check("server exit at SIGTERM", String(result.exitCode), "0", result.exitCode === 0),
  ];
}

export function printReport(result, checks) {
  const { stats } = result;
  const seconds = result.elapsedMs / 1000;
  const statuses = [...stats.byStatus].sort(([a], [b]) => String(a).localeCompare(String(b))).map(([status, count]) => `${status}: ${count}`).join(", ");
  const lines = [
    `soak of ${result.date}: ${result.minutes} min at ${result.rate} req/s on ${result.machine}`,
    `sent ${stats.sent} requests in ${seconds.toFixed(0)} s (${(stats.sent / seconds).toFixed(0)} req/s); ${statuses}`,
    `warm-up ${(result.warmupMs / 1000).toFixed(0)} s (the event backlog full at ${(result.readyMs / 1000).toFixed(0)} s, at least a fifth of the run; then V8's new space at its working ${mib(result.memory.youngKb)} MiB for 30 s; at most half the run)`,
    `client latency p50 ${percentile(stats.latenciesMs, 50).toFixed(1)} ms, p99 ${percentile(stats.latenciesMs, 99).toFixed(1)} ms, max in flight ${stats.inFlightMax}`,
    `server log: ${result.log.lines} lines, ${result.log.warnings.length} warnings`,
    `V8 heap after warm-up → at the end: ${heapFigure(result)}; the server then held ${result.verification.pets} pets, ` +
      `${result.verification.orders} orders, and the Idempotency-Key records of one create or order in ten (kept 24 h by design)`,
    "",
    "| check | figure | limit | |",
    "|---|---|---|---|",
    ...checks.map((c) => `| ${c.name} | ${c.figure} | ${c.limit} | ${c.info ? "info" : c.ok ? "ok" : "FAILED"} |`),
  ];
  for (const line of [...stats.unexpected.slice(0, 10), ...result.log.errors.slice(0, 10), ...result.verification.problems.slice(0, 10)]) {
    lines.push(`  ${line}`);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}

const check = (name, figure, limit, ok) => ({ name, figure, limit, ok });
/** A figure shown among the checks without being one. */
const info = (name, figure) => ({ name, figure, limit: "", ok: true, info: true });
const heapFigure = (result) => {
  const windows = result.loopWindows.filter((window) => window.at > result.warmupMs && window.heapUsed !== undefined);
  if (windows.length === 0) return "not scraped";
  const [first, last] = [windows[0], windows.at(-1)];
  const span = (name) => `${(first[name] / 2 ** 20).toFixed(1)} → ${(last[name] / 2 ** 20).toFixed(1)} MiB`;
  return `in use ${span("heapUsed")}, reserved ${span("heapTotal")}, outside it (Buffers) ${span("external")}`;
};
const pct = (ratio) => `${(ratio * 100).toFixed(1)}%`;
const mib = (kb) => (kb / 1024).toFixed(1);
