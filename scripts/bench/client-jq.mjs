// `--jq` over 10,000 pets, as a script runs it: `pets list --limit 10000 --jq length` and
// `api /pets --paginate --jq length` against a local server, each the median of `runs` (after
// one warm-up), beside the same commands printing plain JSON (fetching 100 pages is most of it).
// Goal: under 2 s each, so the cost grows with the data and not with its square.
// Run alone: `npm run build && node scripts/bench/client-jq.mjs [--runs 3]`; the bench calls clientJq().
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { withPetstoreServer } from "./lib/petstore-server.mjs";
import { row } from "./lib/report.mjs";
import { SECRETS, writePetstoreDb } from "./lib/seed.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const COUNT = 10_000;
const GOAL_MS = 2_000;

/** The median wall time of each command, in ms; a run that does not print the count is a problem. */
export async function clientJq({ runs = 3 } = {}) {
  const work = await mkdtemp(join(tmpdir(), "petstore-jq-"));
  try {
    const db = join(work, "petstore.json");
    await writePetstoreDb(db, COUNT);
    return await withPetstoreServer({ root: ROOT, db }, ({ origin }) => {
      const env = { ...process.env, NO_COLOR: "1", PETSTORE_BASE_URL: `${origin}/v1`, PETSTORE_API_KEY: SECRETS.load, PETSTORE_CONFIG: join(work, "none.json") };
      const list = ["pets", "list", "--limit", String(COUNT)];
      const api = ["api", "/pets?limit=100", "--paginate"];
      return {
        list: medianOf([...list, "--jq", "length"], env, runs),
        listJson: medianOf([...list, "--json"], env, runs),
        api: medianOf([...api, "--jq", "length"], env, runs),
        apiJson: medianOf(api, env, runs),
      };
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The rows: each command against the absolute goal. */
export function clientJqRows({ list, listJson, api, apiJson }) {
  const jqRow = (scenario, jq, json) =>
    row({ id: "5", scenario, figure: jq.ms, unit: "ms", baseline: json.ms, baselineName: "the same, --json", inverse: true,
      goal: ["<", GOAL_MS], absolute: true, problem: jq.problem ?? json.problem });
  return [
    jqRow(`pets list --limit ${COUNT} --jq length (${COUNT / 1000}k pets)`, list, listJson),
    jqRow(`api /pets --paginate --jq length (${COUNT / 1000}k pets)`, api, apiJson),
  ];
}

function medianOf(args, env, runs) {
  const times = [];
  for (let run = -1; run < runs; run++) {
    const started = process.hrtime.bigint();
    const result = spawnSync(process.execPath, [join(ROOT, "bin/petstore.js"), ...args], { env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const counted = args.includes("--jq") ? result.stdout === `${COUNT}\n` : JSON.parse(result.stdout || "[]").length === COUNT;
    if (result.status !== 0 || !counted) {
      return { ms: NaN, problem: `exit ${result.status}, printed ${JSON.stringify(result.stdout.slice(0, 40))}: ${result.stderr.slice(0, 200)}` };
    }
    if (run >= 0) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return { ms: times[times.length >> 1] };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "3" } } });
  const result = await clientJq({ runs: Number(values.runs) });
  for (const r of clientJqRows(result)) {
    console.log(`${r.scenario}: ${r.figure.toFixed(0)} ms, ${r.baseline.toFixed(0)} ms without --jq (goal ${r.goal}) ${r.pass ? "pass" : `FAIL ${r.problem ?? ""}`}`);
  }
}
