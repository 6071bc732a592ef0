// `npm run bench [-- --quick] [-- --out file.json]`: petstore's speed and memory as ratios to
// baselines measured in the same run on the same machine (bare node:http, json-server 0.17.4).
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { killAll, pinned, pinSelf } from "./lib/processes.mjs";
import { formatTable, writeResults } from "./lib/report.mjs";
import { runScenarios } from "./scenarios.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const PLANS = {
  // Load runs of 5 s: seven paired rounds for scenario 1 against node:http and fastify, seven for
  // a scoped key against an unscoped one, three alternating rounds for the other GET comparisons:
  // about 5 minutes in all.
  full: { seconds: 5, pairedRounds: 7, rounds: 3, warmupSeconds: 2, postSeconds: 10, cliRuns: 20, limiterSeconds: 6, metricsProcesses: 5, metricsPairs: 300, events: { streams: 1_000, rate: 1_000 }, webhooks: { endpoints: 10, rate: 500, seconds: 20 }, millionPets: 1_000_000, journalSeconds: 5, jqRuns: 5 },
  quick: { seconds: 1, pairedRounds: 1, rounds: 1, warmupSeconds: 0.5, postSeconds: 1, cliRuns: 5, limiterSeconds: 3, metricsProcesses: 1, metricsPairs: 100, events: { streams: 100, rate: 100 }, webhooks: { endpoints: 10, rate: 100, seconds: 2 }, millionPets: 100_000, journalSeconds: 1, jqRuns: 1 },
};

const USAGE = "usage: npm run bench [-- --quick] [-- --out file.json]";
let flags;
try {
  ({ values: flags } = parseArgs({ options: { quick: { type: "boolean", default: false }, out: { type: "string" } } }));
} catch (error) {
  process.stderr.write(`bench: ${error.message}\n${USAGE}\n`);
  process.exit(2);
}
const mode = flags.quick ? "quick" : "full";
const out = flags.out ?? join(ROOT, "bench/results", `${new Date().toISOString().replace(/[:.]/g, "-")}-${mode}.json`);

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.once(signal, () => {
    killAll();
    process.exit(130);
  });
}
process.once("exit", killAll);

const startedAt = Date.now();
build();
pinSelf();
const work = await mkdtemp(join(tmpdir(), "petstore-bench-"));
try {
  console.error(`petstore bench (${mode}): servers on core 0, load on core 1: ${pinned ? "yes" : "no (no taskset)"}`);
  const { rows, runs } = await runScenarios({ root: ROOT, work, plan: PLANS[mode], log: (line) => console.error(line) });
  const seconds = (Date.now() - startedAt) / 1000;
  console.log(formatTable(rows));
  await writeResults(out, { mode, date: new Date().toISOString(), seconds, machine: machine(), rows, runs });
  const missed = rows.filter((r) => r.pass === false).length;
  console.log(`\ngoals missed: ${missed}; figures in ${out} (${seconds.toFixed(0)} s)`);
} finally {
  killAll();
  await rm(work, { recursive: true, force: true });
}

/** The npm build, and the single executable (about a minute) for scenario 5's rows of its own. */
function build() {
  for (const [script, name] of [["scripts/build.mjs", "build"], ["scripts/package.mjs", "package"]]) {
    const result = spawnSync(process.execPath, [join(ROOT, script)], { stdio: "inherit", cwd: ROOT });
    if (result.status !== 0) throw new Error(`npm run ${name} failed`);
  }
}

function machine() {
  return {
    cores: cpus().length,
    cpu: cpus()[0]?.model,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverageAtEnd: loadavg(),
    pinned,
  };
}
