// Latency at microsecond resolution: autocannon reports whole milliseconds, so two servers
// answering in 1.0 and 1.9 ms read as 1 and 2, a ratio of 2 where there is almost none.
import { performance } from "node:perf_hooks";
import { Pool } from "undici";

/**
 * `connections` keep-alive connections, each sending the next GET as soon as the last answer is
 * read, for `seconds`; returns the p50 and p99 in ms (fractional) and whether every answer was
 * `expect`. With `paths`, the GETs take them in turn (pages a cache must not answer) instead of
 * `url`'s own.
 *
 * @example await sampleLatency({ url, headers, connections: 10, seconds: 5, expect: 200 })
 */
export async function sampleLatency({ url, paths, headers = {}, connections = 10, seconds, expect }) {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections, pipelining: 1 });
  let turn = 0;
  const nextPath = paths === undefined ? () => target.pathname + target.search : () => paths[turn++ % paths.length];
  const times = [];
  let unexpected = 0;
  const statuses = {};
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      try {
        const response = await pool.request({ method: "GET", path: nextPath(), headers });
        await response.body.dump();
        times.push(performance.now() - started);
        statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
        if (response.statusCode !== expect) unexpected++;
      } catch {
        errors++;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, worker));
  } finally {
    await pool.close();
  }
  times.sort((a, b) => a - b);
  const at = (p) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? NaN;
  return {
    p50: at(50),
    p99: at(99),
    total: times.length,
    problem: times.length === 0 ? "no answers" : unexpected > 0 || errors > 0 ? `${unexpected} answers not ${expect}, ${errors} errors (${JSON.stringify(statuses)})` : undefined,
  };
}
