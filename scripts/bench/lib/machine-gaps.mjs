// The third control for scenario 7, and the plainest: a thread that never waits for anything. It
// reads the clock in a loop, with no timer, no I/O and no allocation, for `seconds`; any gap
// between two reads is time the machine did not run it (the hypervisor, interrupts, a neighbour),
// as no code of ours or of node's can be blamed. Its longest gap is the floor under any "worst
// event-loop pause" measured on this machine over as long. Prints one JSON line.
// argv: <seconds>
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";

const seconds = Number(process.argv[2]);
// The same settle as measureLoop's, so both start from a process past its start-up.
await sleep(500);
const end = performance.now() + seconds * 1000;
let longest = 0;
let over1ms = 0;
for (let last = performance.now(); last < end; ) {
  const now = performance.now();
  const gap = now - last;
  if (gap > 1) over1ms++;
  if (gap > longest) longest = gap;
  last = now;
}
console.log(JSON.stringify({ maxMs: Math.round(longest * 100) / 100, gapsOver1ms: over1ms }));
