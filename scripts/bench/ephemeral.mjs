// The throwaway server's rows: spawn to listening with a 1,000-pet seed in memory against the same
// pets in a db file, resets of that seed, and GET /v1/pets in memory against the file db (paired).
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startPetstore } from "./lib/petstore-server.mjs";
import { row } from "./lib/report.mjs";
import { median, takeTurns } from "./lib/rounds.mjs";
import { makePets, SECRETS, UNLIMITED, writePetstoreDb } from "./lib/seed.mjs";

const PETS = 1000;
const RESETS = 100;
/** A seed's secrets are `ps_` and 40 letters or digits. */
const SEED_ADMIN = `ps_BenchSeedAdmin${"0".repeat(26)}`;
const SEED_LOAD = `ps_BenchSeedLoad${"0".repeat(27)}`;
const LIST = "/v1/pets?limit=20";

export async function ephemeralRows(ctx) {
  const { work, log } = ctx;
  const seed = join(work, "ephemeral-seed-1k.json");
  const keys = [
    { key: SEED_ADMIN, plan: "enterprise", admin: true, ...UNLIMITED },
    { key: SEED_LOAD, plan: "enterprise", ...UNLIMITED },
  ];
  await writeFile(seed, JSON.stringify({ pets: makePets(PETS), keys }));
  const db = join(work, "ephemeral-compare-1k.json");
  await writePetstoreDb(db, PETS);
  const starts = await startTimes(ctx, seed, db);
  log(`spawn to listening, 1k pets: in memory ${starts.memory.toFixed(0)} ms, file db ${starts.file.toFixed(0)} ms`);
  const memory = await startPetstore({ root: ctx.root, args: ["--ephemeral", "--seed", seed] });
  const file = await startPetstore({ root: ctx.root, db });
  try {
    const p99 = await resetP99(memory.origin);
    log(`reset of 1k pets: p99 ${p99.toFixed(1)} ms over ${RESETS}`);
    const rounds = await takeTurns(
      ctx,
      {
        "GET in memory": { url: `${memory.origin}${LIST}`, headers: { authorization: `Bearer ${SEED_LOAD}` }, expect: 200, pid: memory.pid },
        "GET file db": { url: `${file.origin}${LIST}`, headers: { authorization: `Bearer ${SECRETS.load}` }, expect: 200, pid: file.pid },
      },
      { rounds: ctx.plan.pairedRounds, turn: true, runsKey: (name) => `ephemeral ${name}` },
    );
    const ratio = median(rounds.map((round) => round["GET in memory"].rps / round["GET file db"].rps));
    return [
      row({ id: "T", scenario: "serve --ephemeral: spawn to listening, 1k-pet seed (vs the same pets in a db file)", figure: starts.memory, unit: "ms", baseline: starts.file, baselineName: "file db", ratio: starts.memory / starts.file, goal: ["<=", 1.2] }),
      row({ id: "T", scenario: `  POST /v1/admin/reset of 1k pets: p99 over ${RESETS}`, figure: p99, unit: "ms", goal: ["<", 50], absolute: true }),
      row({ id: "T", scenario: "  GET /v1/pets?limit=20 in memory (vs file db, paired rounds)", figure: median(rounds.map((round) => round["GET in memory"].rps)), unit: "req/s", ratio, goal: [">=", 1.0] }),
    ];
  } finally {
    await memory.stop();
    await file.stop();
  }
}

/** Medians of alternating starts, so that neither always goes first on a warm cache. */
async function startTimes(ctx, seed, db) {
  const times = { memory: [], file: [] };
  for (let n = 0; n < Math.max(3, ctx.plan.rounds * 3); n++) {
    for (const kind of n % 2 === 0 ? ["memory", "file"] : ["file", "memory"]) {
      const server = await startPetstore(kind === "memory" ? { root: ctx.root, args: ["--ephemeral", "--seed", seed] } : { root: ctx.root, db });
      times[kind].push(server.startMs);
      await server.stop();
    }
  }
  return { memory: median(times.memory), file: median(times.file) };
}

async function resetP99(origin) {
  const took = [];
  for (let n = 0; n < RESETS; n++) {
    const started = performance.now();
    const response = await fetch(`${origin}/v1/admin/reset`, { method: "POST", headers: { authorization: `Bearer ${SEED_ADMIN}` } });
    if (response.status !== 204) throw new Error(`POST /v1/admin/reset answered ${response.status}`);
    took.push(performance.now() - started);
  }
  took.sort((a, b) => a - b);
  return took[Math.ceil(took.length * 0.99) - 1];
}
