// Issue 19's cost of compression: GET /v1/pets?limit=100 (6 KB of JSON) with and without
// `Accept-Encoding: gzip`, alternated on one server in the same run. A row of `npm run bench`
// (its targets join scenario 1's rounds); alone: `node scripts/bench/compression.mjs [--quick]`
// (after `npm run build`), which starts its own server over 1k pets.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { load } from "./lib/load.mjs";
import { killAll, startProcess } from "./lib/processes.mjs";
import { formatTable, row } from "./lib/report.mjs";
import { SECRETS, UNLIMITED, writePetstoreDb } from "./lib/seed.mjs";

export const LIST_100 = "/v1/pets?limit=100";

/** The two load targets: the same listing, plain and gzip-compressed. */
export function compressionTargets(origin, pid) {
  const headers = { authorization: `Bearer ${SECRETS.load}` };
  return {
    list100: { url: origin + LIST_100, headers, expect: 200, pid },
    list100Gzip: { url: origin + LIST_100, headers: { ...headers, "accept-encoding": "gzip" }, expect: 200, pid },
  };
}

/** The row: the compressed path's throughput against the plain one's; the goal is at most 10% off. */
export function compressionRow(best) {
  return row({ id: "1", scenario: "GET /v1/pets?limit=100 with Accept-Encoding: gzip, 50 conn", figure: best.list100Gzip.rps,
    unit: "req/s", baseline: best.list100.rps, baselineName: "same, uncompressed", goal: [">=", 0.9],
    problem: best.list100Gzip.problem ?? best.list100.problem });
}

async function standalone(quick) {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const work = await mkdtemp(join(tmpdir(), "petstore-bench-compression-"));
  const seconds = quick ? 1 : 5;
  try {
    await writePetstoreDb(join(work, "db.json"), 1_000);
    await writeFile(join(work, "serve-config.json"), JSON.stringify({ anonymous: UNLIMITED }));
    const server = await startProcess(
      "petstore serve",
      process.execPath,
      [join(root, "bin/petstore.js"), "serve", "--port", "0", "--db", join(work, "db.json"), "--quiet", "--config", join(work, "serve-config.json")],
      { env: { PETSTORE_ADMIN_KEY: "", PETSTORE_SERVE_CONFIG: "" }, ready: (output) => /listening on (http:\/\/\S+)\/v1/.exec(output)?.[1] },
    );
    const targets = compressionTargets(server.ready, server.pid);
    const best = {};
    for (const target of Object.values(targets)) await load({ ...target, seconds: quick ? 0.5 : 2 });
    for (let round = 1; round <= (quick ? 1 : 3); round++) {
      for (const [name, target] of Object.entries(targets)) {
        const result = await load({ ...target, seconds });
        console.error(`round ${round} ${name}: ${result.rps.toFixed(0)} req/s, server CPU ${result.cpuUsPerRequest.toFixed(1)} µs/req`);
        if (!best[name] || result.rps > best[name].rps) best[name] = result;
      }
    }
    await server.stop();
    console.log(formatTable([compressionRow(best)]));
  } finally {
    killAll();
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await standalone(process.argv.includes("--quick"));
