// Issue 20's cost that grew with the clients: the file-mode limiter's save of its counters. The
// limiter's modules are bundled from src/ with esbuild and measured in a process of their own.
import { execFileSync } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { join } from "node:path";
import { build } from "esbuild";
import { onAllCores } from "./lib/processes.mjs";
import { row } from "./lib/report.mjs";

/**
 * The worst and p99 event-loop pause, in ms, over `seconds` of traffic at 100,000 subjects (the
 * calmest of `rounds`), and the same figures, each the calmest of its own rounds, of the same
 * traffic with no saves (`unsaved`), of the same traffic with no limiter (`unlimited`) and of an
 * idle process (`idle`), and the longest time the machine left a never-idle thread unrun (`machine`).
 */
export async function limiterPause({ root, work, seconds, rounds = 3, log }) {
  const bundle = join(work, "limiter.mjs");
  await build({
    stdin: {
      contents: `export { MemoryRateLimiter, openMemoryRateLimiter } from "./src/limits/memory-rate-limiter.ts";\nexport { filePersister } from "./src/limits/file-persister.ts";`,
      resolveDir: root,
      loader: "ts",
    },
    outfile: bundle,
    bundle: true,
    format: "esm",
    platform: "node",
    logLevel: "warning",
  });
  const script = new URL("./lib/limiter-pause.mjs", import.meta.url).pathname;
  const control = new URL("./lib/idle-pause.mjs", import.meta.url).pathname;
  const gaps = new URL("./lib/machine-gaps.mjs", import.meta.url).pathname;
  // Alternated with four controls, and the calmest round of each kept, as the load runs do: the
  // same traffic with no saves, the same traffic with no limiter, an idle process measured the
  // same way, and a thread that never waits (machine-gaps.mjs). On a shared machine the worst
  // pause is often the machine's, not ours: the saves' own part is the gap to the first, the
  // limiter's the gap to the second. Each runs on both cores, as a server does (onAllCores).
  const calmest = (best, result) => (!best || result.maxMs < best.maxMs ? result : best);
  let best;
  let unsaved;
  let idle;
  let unlimited;
  let machine;
  for (let round = 0; round < rounds; round++) {
    const dir = await mkdtemp(join(work, "limits-"));
    const result = run(["--expose-gc", script, bundle, dir, String(seconds)]);
    log(`limiter saves at 100k subjects: worst pause ${result.maxMs} ms, p99 ${result.p99Ms} ms (state ${result.stateBytes} bytes)`);
    const bare = run(["--expose-gc", script, bundle, dir, String(seconds), "no-saves"]);
    log(`the same traffic, no saves: worst pause ${bare.maxMs} ms, p99 ${bare.p99Ms} ms`);
    const alone = run(["--expose-gc", script, bundle, dir, String(seconds), "no-limiter"]);
    log(`the same traffic, no limiter: worst pause ${alone.maxMs} ms, p99 ${alone.p99Ms} ms`);
    const still = run([control, String(seconds)]);
    log(`idle process: worst pause ${still.maxMs} ms, p99 ${still.p99Ms} ms`);
    const floor = run([gaps, String(seconds)]);
    log(`a never-idle thread: longest time unrun ${floor.maxMs} ms (${floor.gapsOver1ms} gaps over 1 ms)`);
    best = calmest(best, result);
    unsaved = calmest(unsaved, bare);
    unlimited = calmest(unlimited, alone);
    idle = calmest(idle, still);
    machine = calmest(machine, floor);
  }
  return { ...best, unsaved, unlimited, idle, machine };
}

/** Runs node with these arguments on every core, and returns the JSON line it printed last. */
function run(args) {
  const output = execFileSync(...onAllCores(process.execPath, args), { encoding: "utf8" });
  return JSON.parse(output.trim().split("\n").at(-1));
}

/** Scenario 7's information rows: the four controls. */
export function limiterControlRows({ unsaved, unlimited, idle, machine }) {
  const info = (scenario, figure) => row({ id: "7", scenario, figure: figure ?? NaN, unit: "ms" });
  return [
    info("  the same traffic with no saves, same run: worst event-loop pause", unsaved?.maxMs),
    info("  the same traffic with no limiter at all, same run: worst event-loop pause", unlimited?.maxMs),
    info("  idle process, same run: worst event-loop pause", idle?.maxMs),
    info("  the machine, same run: longest time a never-idle thread went unrun", machine?.maxMs),
  ];
}
