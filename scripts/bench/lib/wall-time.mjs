// Wall time of short commands, run in turns so that a noisy moment hits all of them alike.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

/**
 * Runs each command `runs` times (after one unmeasured warm-up each), interleaved, and returns
 * the median and mean wall time of each in ms, and its mean CPU time (user + system, all its
 * threads; less disturbed by other work on the machine). Throws when a command fails.
 *
 * @example await wallTimes({ node: ["node", ["-e", ""]] }, { runs: 20, env })
 */
export function wallTimes(commands, { runs, env }) {
  const samples = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
  const cpu = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
  for (let run = -1; run < runs; run++) {
    for (const [name, [command, args]] of Object.entries(commands)) {
      const cpuBefore = childrenCpuMs();
      const started = process.hrtime.bigint();
      const result = spawnSync(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (result.status !== 0) {
        throw new Error(`${name} exited with ${result.status}: ${result.stderr.toString().slice(0, 2000)}`);
      }
      if (run >= 0) samples[name].push(ms);
      if (run >= 0) cpu[name].push(childrenCpuMs() - cpuBefore);
    }
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, times]) => [name, { median: median(times), mean: mean(times), cpuMean: mean(cpu[name]), runs }]),
  );
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function mean(values) {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** CPU time of this process's waited-for children so far, in ms (/proc: clock ticks of 10 ms, so only a mean over runs means much). */
function childrenCpuMs() {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  return (Number(fields[13]) + Number(fields[14])) * 10;
}
