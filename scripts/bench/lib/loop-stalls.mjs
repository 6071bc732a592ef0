// How long the event loop was held by this process's own work, whatever its neighbours do. On a
// shared 2-core VM an idle process's timer fires up to 20-45 ms late (monitorEventLoopDelay),
// because the process waits for a core, not because it is busy. So between two 1 ms ticks this
// counts the main thread's time on a CPU (Linux schedstat, in ns), not the wall time: a turn that
// ran 8 ms of JavaScript or GC counts 8 ms, a turn spent waiting in the run queue counts nothing.
import { readFileSync } from "node:fs";
import { createHistogram, monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";

/** A meter, or undefined where the kernel does not publish schedstat. `stop()` gives { maxMs, p99Ms }. */
export function loopStallMeter() {
  const path = `/proc/self/task/${process.pid}/schedstat`;
  const onCpuMs = () => Number(readFileSync(path, "latin1").split(" ")[0]) / 1e6;
  try {
    if (!Number.isFinite(onCpuMs())) return undefined;
  } catch {
    return undefined;
  }
  const histogram = createHistogram();
  let last = onCpuMs();
  const timer = setInterval(() => {
    const now = onCpuMs();
    histogram.record(Math.max(1, Math.round((now - last) * 1000)));
    last = now;
  }, 1);
  return {
    stop() {
      clearInterval(timer);
      return { maxMs: round(histogram.max / 1000), p99Ms: round(histogram.percentile(99) / 1000) };
    },
  };
}

function round(ms) {
  return Math.round(ms * 100) / 100;
}

/**
 * Scenario 7's two measures of this process's loop over `seconds`, after a half-second settle:
 * the wall-clock delay (monitorEventLoopDelay, 1 ms resolution) and the turns' own time on a CPU.
 */
export async function measureLoop(seconds) {
  await sleep(500);
  const stalls = loopStallMeter();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  await sleep(seconds * 1000);
  delay.disable();
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  return { maxMs: ms(delay.max), p99Ms: ms(delay.percentile(99)), onCpu: stalls?.stop() ?? null };
}
