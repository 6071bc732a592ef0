// How long the event loop was held by this process's own work, whatever its neighbours do. On a
// shared 2-core VM an idle process's timer fires up to 20-45 ms late (monitorEventLoopDelay),
// because the process waits for a core, not because it is busy. So between two 1 ms ticks this
// counts the main thread's time on a CPU (Linux schedstat, in ns), not the wall time: a turn that
// ran 8 ms of JavaScript or GC counts 8 ms, a turn spent waiting in the run queue counts nothing.
import { closeSync, openSync, readSync } from "node:fs";
import { createHistogram, monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";

/** A meter, or undefined where the kernel does not publish schedstat. `stop()` gives { maxMs, p99Ms }. */
export function loopStallMeter() {
  const onCpuMs = schedstatReader(`/proc/self/task/${process.pid}/schedstat`);
  if (onCpuMs === undefined) return undefined;
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
      onCpuMs.close();
      return { maxMs: round(histogram.max / 1000), p99Ms: round(histogram.percentile(99) / 1000) };
    },
  };
}

/**
 * The thread's time on a CPU in ms, read a thousand times a second without allocating: one open
 * file read again from offset 0 into one buffer. (readFileSync made a 64 KiB buffer per read, and
 * the meter's own garbage then showed in the process it measured.)
 */
function schedstatReader(path) {
  let fd;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  const bytes = Buffer.alloc(128);
  const read = () => {
    const length = readSync(fd, bytes, 0, bytes.length, 0);
    let ns = 0;
    for (let i = 0; i < length && bytes[i] >= 0x30 && bytes[i] <= 0x39; i++) ns = ns * 10 + (bytes[i] - 0x30);
    return ns / 1e6;
  };
  read.close = () => closeSync(fd);
  if (!(read() > 0)) {
    read.close();
    return undefined;
  }
  return read;
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
