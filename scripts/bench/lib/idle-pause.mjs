// The control for scenario 7: a process that does nothing but the same 5 ms timer, measured the
// same two ways for the same time. What it shows is the machine, not petstore. Prints one JSON line.
// argv: <seconds>
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { loopStallMeter } from "./loop-stalls.mjs";

const seconds = Number(process.argv[2]);
const ticking = setInterval(() => {}, 5);
await sleep(500);
const stalls = loopStallMeter();
const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
await sleep(seconds * 1000);
delay.disable();
clearInterval(ticking);
const ms = (ns) => Math.round(ns / 1e4) / 100;
console.log(JSON.stringify({ maxMs: ms(delay.max), p99Ms: ms(delay.percentile(99)), onCpu: stalls?.stop() ?? null }));
