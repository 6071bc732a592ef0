// One bounded load run with autocannon, one of the bench's own packages (bench-packages.mjs).
import { ensureBenchPackages } from "./bench-packages.mjs";
import { cpuMsOf } from "./processes.mjs";

// Every scenario loads through here, so `npm run bench` and a scenario run alone
// (node scripts/bench/million.mjs) both install them first when absent; so do the rivals.
ensureBenchPackages();
const { default: autocannon } = await import("autocannon");

/**
 * Runs `connections` keep-alive connections against `url` for `seconds` and checks that every
 * answer had the `expect`ed status: a run that measured the wrong thing is reported, not used.
 * With the server's `pid`, it also reports the server's CPU time per answer.
 *
 * @example await load({ url, seconds: 10, connections: 50, headers, expect: 200 })
 */
export async function load({ url, seconds, connections = 50, method = "GET", headers = {}, body, setupRequest, expect, pid }) {
  const cpuBefore = pid === undefined ? NaN : cpuMsOf(pid);
  // setupRequest (autocannon's) rewrites each request: e.g. a new body, so every PATCH changes something.
  // Only when asked: autocannon given a `requests` key, even undefined, builds every request anew,
  // which halved its own rate and so the load every other row measured.
  const options = { url, duration: seconds, connections, method, headers, body, timeout: 10 };
  const result = await autocannon(setupRequest === undefined ? options : { ...options, requests: [{ setupRequest }] });
  const cpuMs = pid === undefined ? NaN : cpuMsOf(pid) - cpuBefore;
  const statuses = {};
  for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {})) statuses[status] = Number(count);
  const total = Object.values(statuses).reduce((sum, count) => sum + count, 0);
  const unexpected = total - (statuses[expect] ?? 0);
  return {
    rps: total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total,
    /** Server CPU per answer, when the server's pid is given. */
    cpuUsPerRequest: (cpuMs * 1000) / total,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    problem:
      total === 0
        ? "no answers"
        : unexpected > 0 || result.errors > 0
          ? `${unexpected} answers not ${expect}, ${result.errors} errors (${JSON.stringify(statuses)})`
          : undefined,
  };
}
