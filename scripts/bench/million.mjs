// Issue 20: a file store of 1,000,000 pets. Start-up (snapshot read, then snapshot plus a
// journal to replay), RSS, and the p99 of a status page at 1M against the same page at 1k in
// the same run: a ratio, where an absolute "p99 < 5 ms" failed on a busy machine while nothing
// was wrong.
import { join } from "node:path";
import { load } from "./lib/load.mjs";
import { sampleLatency } from "./lib/latency.mjs";
import { startPetstore } from "./lib/petstore-server.mjs";
import { memoryOf } from "./lib/processes.mjs";
import { row } from "./lib/report.mjs";
import { SECRETS, writePetstoreDb } from "./lib/seed.mjs";

const SOLD = "/v1/pets?status=sold&limit=100";
const LATENCY_CONNECTIONS = 10;
const bearer = { authorization: `Bearer ${SECRETS.load}` };

/**
 * The rows of scenario 3. `config` is the serve config (anonymous callers unlimited); `plan`
 * sets the run lengths and how many creates the journal gets before the second start.
 */
export async function millionRows({ root, work, plan, log, runs }, config) {
  const file = join(work, "petstore-1m.json");
  log(`seeding ${plan.millionPets.toLocaleString("en")} pets`);
  await writePetstoreDb(file, plan.millionPets);
  const serve = (db) => startPetstore({ root, db, config, timeoutMs: 300_000 });

  // The seed is written in format version 1: the first start upgrades it, untimed.
  await (await serve(file)).stop();

  const clean = await serve(file);
  log(`started over ${plan.millionPets} pets (snapshot only) in ${clean.startMs.toFixed(0)} ms`);
  const creates = await load({
    url: clean.origin + "/v1/pets",
    method: "POST",
    headers: { ...bearer, "content-type": "application/json" },
    body: JSON.stringify({ name: "Journaled", categoryId: 2 }),
    seconds: plan.journalSeconds,
    expect: 201,
  });
  // Killed, not stopped: a graceful stop would fold the journal into the snapshot.
  clean.kill();
  log(`${creates.total} creates journaled, then killed`);

  const replayed = await serve(file);
  log(`started over the snapshot plus ${creates.total} journaled creates in ${replayed.startMs.toFixed(0)} ms`);
  try {
    const small = await serve(join(work, "petstore-1k.json"));
    let p99k;
    try {
      p99k = await soldP99(small, plan);
    } finally {
      await small.stop();
    }
    const p99m = await soldP99(replayed, plan);
    const memory = memoryOf(replayed.pid);
    runs["scenario 3: 1M pets"] = { startCleanMs: clean.startMs, startReplayMs: replayed.startMs, journaled: creates.total, sold1k: p99k, sold1m: p99m, memory };
    const size = `${plan.millionPets / 1_000_000}M`;
    log(`status=sold p99: ${p99m.p99.toFixed(2)} ms at ${size}, ${p99k.p99.toFixed(2)} ms at 1k; RSS ${memory.rssMb.toFixed(0)} MB`);
    return [
      row({ id: "3", scenario: `GET ?status=sold&limit=100 at ${size} pets, p99, ${LATENCY_CONNECTIONS} conn`, figure: p99m.p99, unit: "ms",
        baseline: p99k.p99, baselineName: "the same at 1k", goal: ["<=", 1.5], problem: p99m.problem ?? p99k.problem }),
      row({ id: "3", scenario: `  server RSS with ${size} pets`, figure: memory.rssMb, unit: "MB", goal: ["<", 1024], absolute: true }),
      row({ id: "3", scenario: `  start-up with ${size} pets: snapshot only`, figure: clean.startMs, unit: "ms" }),
      row({ id: "3", scenario: `  start-up: snapshot + journal of ${creates.total} creates`, figure: replayed.startMs, unit: "ms" }),
    ];
  } finally {
    await replayed.stop();
  }
}

/** Warmed with autocannon, then timed at microsecond resolution (see lib/latency.mjs). */
async function soldP99(server, plan) {
  const target = { url: server.origin + SOLD, headers: bearer, expect: 200, connections: LATENCY_CONNECTIONS };
  await load({ ...target, seconds: plan.warmupSeconds });
  return sampleLatency({ ...target, seconds: plan.seconds });
}
