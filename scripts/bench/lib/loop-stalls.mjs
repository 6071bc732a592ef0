// Scenario 7's measure of an event loop: how late a 1 ms timer fires (monitorEventLoopDelay), over
// a given time. It is wall time, so it holds both this process's own long turns and the times the
// machine did not run it; the controls in limiter-saves.mjs tell the two apart.
//
// There was a second measure here, each 1 ms tick's time on a CPU read from Linux schedstat. It
// is gone: on these VMs (CONFIG_HZ=250) a thread's CPU time is brought up to date at the
// scheduler's 4 ms tick and at context switches, not when read, so a busy loop of 0.5 ms read
// 0.66-2.17 ms, and a turn of 1 ms wall time could read 4 ms. process.cpuUsage() reads the same.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";

/** The worst and p99 delay in ms over `seconds`, after a half-second settle (1 ms resolution). */
export async function measureLoop(seconds) {
  await sleep(500);
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  await sleep(seconds * 1000);
  delay.disable();
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  return { maxMs: ms(delay.max), p99Ms: ms(delay.percentile(99)) };
}
