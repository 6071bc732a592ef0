// Finding pets: GET /v1/pets?q= with a three-letter text that matches 1% of the names,
// against a status= listing of the same page size in the same rounds, on the file engine and over
// PostgreSQL + Redis; its p99 at 10 connections at 100k and at 1M pets; RSS at 1M; sort=name
// against the default order. Names come from lib/pet-names.mjs (a hundred names, each given to
// 1% of the pets).
//
// Every listing here is read at a few hundred distinct URLs in turn (pages found by following
// the Link headers), more than the server keeps answers for, so every request reads its page
// from the store: the same URL again would measure the kept answer, not the index.
//
// Alone: node scripts/bench/search.mjs [--quick] [--only postgres]   (after npm run build)
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { sampleLatency } from "./lib/latency.mjs";
import { load } from "./lib/load.mjs";
import { onePercentTexts, petName } from "./lib/pet-names.mjs";
import { startPetstore } from "./lib/petstore-server.mjs";
import { killAll, memoryOf, pinSelf } from "./lib/processes.mjs";
import { formatTable, row } from "./lib/report.mjs";
import { median, medianRun, takeTurns } from "./lib/rounds.mjs";
import { SECRETS, UNLIMITED, writePetstoreDb } from "./lib/seed.mjs";
import { postgresTarget, startPostgresPetstore, warmPostgres } from "./postgres.mjs";

const PAGE = 20;
// More than the server's kept answers (256), so that none is ever answered from them.
const DISTINCT_PAGES = 320;
const LATENCY_CONNECTIONS = 10;
const headers = { authorization: `Bearer ${SECRETS.load}` };

/** The rows; `config` is the serve config (anonymous callers unlimited), `plan` the run lengths. */
export async function searchRows(ctx, config) {
  const { work, plan, log } = ctx;
  const small = join(work, "petstore-search-100k.json");
  log("seeding 100k named pets for the search rows");
  await writePetstoreDb(small, 100_000, petName);
  const file = await fileRows(ctx, small, config);
  const million = await millionRows(ctx, config, file.qLatency).catch((error) => {
    log(`search at ${plan.millionPets} pets failed: ${error.stack ?? error}`);
    return [row({ id: "9", scenario: "q at 1M pets", figure: NaN, unit: "", problem: `failed: ${error.message}` })];
  });
  const postgres = await postgresRows(ctx, small, config).catch((error) => {
    log(`search over PostgreSQL failed: ${error.stack ?? error}`);
    return [row({ id: "9", scenario: "q over PostgreSQL + Redis", figure: NaN, unit: "", problem: `failed: ${error.message}` })];
  });
  return [...file.rows, ...million, ...postgres];
}

/** The PostgreSQL row alone, from the same 100k named pets: for working on that engine. */
async function postgresRowsAlone(ctx, config) {
  const small = join(ctx.work, "petstore-search-100k.json");
  await writePetstoreDb(small, 100_000, petName);
  return postgresRows(ctx, small, config);
}

/** At 100k pets on the file engine: q against status=, its p99, sort=name against the default order. */
async function fileRows(ctx, db, config) {
  const server = await startPetstore({ root: ctx.root, db, config });
  try {
    const pools = await listingPools(server.origin);
    const target = (paths) => rotating(server, paths);
    const rounds = await takeTurns(ctx, { q: target(pools.q), status: target(pools.status), name: target(pools.name), id: target(pools.id) }, {
      rounds: ctx.plan.rounds,
      turn: true,
      runsKey: (name) => `search at 100k: GET ${name} pages`,
    });
    const qLatency = await sampleLatency({ url: server.origin, paths: pools.q, headers, connections: LATENCY_CONNECTIONS, seconds: ctx.plan.seconds, expect: 200 });
    ctx.runs["search at 100k: q p99"] = qLatency;
    ctx.log(`q at 100k, ${LATENCY_CONNECTIONS} conn: p99 ${qLatency.p99.toFixed(2)} ms`);
    const { q, status, name, id, qRatio, nameRatio, problem } = paired(rounds);
    return {
      qLatency,
      rows: [
        row({ id: "9", scenario: `GET ?q=<3 letters, 1% of names>&limit=${PAGE} at 100k, distinct pages, 50 conn (median of rounds)`, figure: q.rps,
          unit: "req/s", baseline: status.rps, baselineName: `status=, limit=${PAGE}`, ratio: qRatio, goal: [">=", 0.5], problem }),
        row({ id: "9", scenario: `  the same, p99 at ${LATENCY_CONNECTIONS} conn`, figure: qLatency.p99, unit: "ms", goal: ["<", 10], absolute: true,
          problem: qLatency.problem }),
        row({ id: "9", scenario: `GET ?sort=name&limit=${PAGE} at 100k, distinct pages (median of rounds)`, figure: name.rps, unit: "req/s",
          baseline: id.rps, baselineName: "default order", ratio: nameRatio, goal: [">=", 0.5], problem }),
      ],
    };
  } finally {
    await server.stop();
  }
}

/** At the plan's million on the file engine: the same q listing's p99 against 100k's, and RSS. */
async function millionRows(ctx, config, at100k) {
  const { work, plan, log } = ctx;
  const db = join(work, "petstore-search-1m.json");
  log(`seeding ${plan.millionPets.toLocaleString("en")} named pets for the search rows`);
  await writePetstoreDb(db, plan.millionPets, petName);
  const server = await startPetstore({ root: ctx.root, db, config, timeoutMs: 300_000 });
  try {
    log(`search server over ${plan.millionPets} pets started in ${server.startMs.toFixed(0)} ms`);
    const { q } = await listingPools(server.origin);
    await load({ ...rotating(server, q), seconds: plan.warmupSeconds });
    const latency = await sampleLatency({ url: server.origin, paths: q, headers, connections: LATENCY_CONNECTIONS, seconds: plan.seconds, expect: 200 });
    const memory = memoryOf(server.pid);
    ctx.runs["search at 1M"] = { latency, memory, startMs: server.startMs };
    const size = `${plan.millionPets / 1_000_000}M`;
    log(`q at ${size}: p99 ${latency.p99.toFixed(2)} ms; RSS ${memory.rssMb.toFixed(0)} MB`);
    return [
      row({ id: "9", scenario: `  the same at ${size} pets, p99 at ${LATENCY_CONNECTIONS} conn`, figure: latency.p99, unit: "ms", baseline: at100k.p99,
        baselineName: "the same at 100k", goal: ["<=", 1.5], problem: latency.problem ?? at100k.problem }),
      row({ id: "9", scenario: `  server RSS with ${size} named pets, search index included`, figure: memory.rssMb, unit: "MB", goal: ["<", 1024], absolute: true }),
      row({ id: "9", scenario: `  start-up with ${size} named pets`, figure: server.startMs, unit: "ms" }),
    ];
  } finally {
    await server.stop();
  }
}

/** Over PostgreSQL + Redis, seeded from the same 100k: q against status=, in the same rounds. */
async function postgresRows(ctx, fileDb, config) {
  const scenario = `  the same q over PostgreSQL + Redis, against its status=`;
  const server = await startPostgresPetstore({ ...ctx, config, fileDb });
  if (server.problem) return [row({ id: "9", scenario, figure: NaN, unit: "req/s", problem: server.problem })];
  try {
    const pools = await listingPools(server.origin);
    const target = (paths) => ({ ...postgresTarget(server), ...rotating(server, paths) });
    await warmPostgres(target(pools.q));
    const rounds = await takeTurns(ctx, { q: target(pools.q), status: target(pools.status) }, {
      rounds: ctx.plan.rounds,
      turn: true,
      runsKey: (name) => `search over PostgreSQL: GET ${name} pages`,
    });
    const { q, status, qRatio, problem } = paired(rounds);
    return [row({ id: "9", scenario, figure: q.rps, unit: "req/s", baseline: status.rps, baselineName: "status= over PostgreSQL", ratio: qRatio, goal: [">=", 0.5], problem })];
  } finally {
    await server.stop();
  }
}

/** The medians of paired rounds: each ratio taken within its round. */
function paired(rounds) {
  const of = (name) => rounds.map((round) => round[name]).filter(Boolean);
  const ratio = (a, b) => median(rounds.map((round) => round[a].rps / round[b].rps));
  const names = Object.keys(rounds[0]);
  const runs = Object.fromEntries(names.map((name) => [name, medianRun(of(name))]));
  return {
    ...runs,
    qRatio: ratio("q", "status"),
    nameRatio: names.includes("name") ? ratio("name", "id") : undefined,
    problem: names.flatMap(of).find((run) => run.problem)?.problem,
  };
}

/** An autocannon target that asks for `paths` in turn. */
function rotating(server, paths) {
  let turn = 0;
  return {
    url: server.origin + paths[0],
    headers,
    expect: 200,
    pid: server.pid,
    setupRequest: (request) => ({ ...request, path: paths[turn++ % paths.length] }),
  };
}

/**
 * The pages each row reads, found as a client finds them, by following Link: q over several
 * texts (each 1% of the names) a few pages deep, and status=, sort=name and the default order
 * deep enough to give as many distinct pages.
 */
async function listingPools(origin) {
  const texts = onePercentTexts();
  const q = [];
  for (let i = 0; q.length < DISTINCT_PAGES && i < texts.length; i++) q.push(...(await followLinks(origin, `/v1/pets?q=${texts[i]}&limit=${PAGE}`, 5)));
  const deep = (path) => followLinks(origin, path, DISTINCT_PAGES);
  return {
    q: q.slice(0, DISTINCT_PAGES),
    status: await deep(`/v1/pets?status=sold&limit=${PAGE}`),
    name: await deep(`/v1/pets?sort=name&limit=${PAGE}`),
    id: await deep(`/v1/pets?limit=${PAGE}`),
  };
}

/** The path of the first page and of up to `pages` - 1 pages after it, by their Link headers. */
async function followLinks(origin, first, pages) {
  const paths = [];
  for (let path = first; path !== undefined && paths.length < pages; ) {
    const response = await fetch(origin + path, { headers });
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
    paths.push(path);
    const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get("link") ?? "")?.[1];
    path = next === undefined ? undefined : new URL(next).pathname + new URL(next).search;
  }
  return paths;
}

// Alone: these rows only, with the full or the quick plan's lengths.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { quick: { type: "boolean", default: false }, only: { type: "string" } } });
  if (values.only !== undefined && values.only !== "postgres") throw new Error(`--only takes "postgres", not ${JSON.stringify(values.only)}`);
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const plan = values.quick
    ? { seconds: 1, rounds: 1, warmupSeconds: 0.5, millionPets: 100_000 }
    : { seconds: 5, rounds: 3, warmupSeconds: 2, millionPets: 1_000_000 };
  const log = (line) => console.error(line);
  process.once("exit", killAll);
  pinSelf();
  const work = await mkdtemp(join(tmpdir(), "petstore-bench-search-"));
  try {
    const config = join(work, "serve-config.json");
    await writeFile(config, JSON.stringify({ anonymous: UNLIMITED }));
    const runs = {};
    const ctx = { root, work, plan, log, runs };
    const rows = values.only === "postgres" ? await postgresRowsAlone(ctx, config) : await searchRows(ctx, config);
    console.log(formatTable(rows));
  } finally {
    killAll();
    await rm(work, { recursive: true, force: true });
  }
}
