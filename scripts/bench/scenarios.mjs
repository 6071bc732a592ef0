// The six scenarios of the bench (with issue 13's PATCH and 304 rows), run in the order that needs the fewest server starts.
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { BENCH_DIR } from "./lib/bench-packages.mjs";
import { load } from "./lib/load.mjs";
import { withPetstoreServer } from "./lib/petstore-server.mjs";
import { freePort, memoryOf, startProcess } from "./lib/processes.mjs";
import { row } from "./lib/report.mjs";
import { bestRun, median, medianRun, summary, takeTurns } from "./lib/rounds.mjs";
import { clientRssRows, clientStreamRss } from "./client-stream-rss.mjs";
import { clientJq, clientJqRows } from "./client-jq.mjs";
import { SECRETS, UNLIMITED, writeJsonServerDb, writePetstoreDb } from "./lib/seed.mjs";
import { wallTimes } from "./lib/wall-time.mjs";
import { limiterPause, limiterControlRows } from "./limiter-saves.mjs";
import { inventoryPairs, ordersRun, storeRows } from "./store.mjs";
import { eventsRows } from "./events.mjs";
import { webhooksRows } from "./webhooks.mjs";
import { ephemeralRows } from "./ephemeral.mjs";
import { millionRows } from "./million.mjs";
import { compressionRow, compressionTargets } from "./compression.mjs";
import { postgresRows, postgresTarget, startPostgresPetstore, warmPostgres } from "./postgres.mjs";
import { searchRows } from "./search.mjs";
import { scopedKeyPairs, scopeRow } from "./scopes.mjs";

const LIST = "/v1/pets?limit=20";
const SOLD = "/v1/pets?status=sold&limit=100";
const NEW_PET = JSON.stringify({ name: "Bench", categoryId: 1 });
/** Scenario 3 measures latency, not saturation: few enough connections that requests do not queue. */
const LATENCY_CONNECTIONS = 10;
const SERVE_CONFIG = "serve-config.json";

const bearer = (secret) => ({ authorization: `Bearer ${secret}` });
const patchHeaders = { ...bearer(SECRETS.load), "content-type": "application/merge-patch+json" };
const postHeaders = { ...bearer(SECRETS.load), "content-type": "application/json" };

/**
 * Runs every scenario and returns the table rows and the raw runs behind them.
 * `plan` sets the run lengths (see PLANS in run.mjs); `log` reports progress on stderr.
 */
export async function runScenarios({ root, work, plan, log }) {
  const ctx = { root, work, plan, log, runs: {} };
  await seed(ctx);
  const get = await getComparisons(ctx);
  const jsonServerPost = await withJsonServer(ctx, "json-server-10k.json", async (server) => {
    const target = { url: `${server.origin}/pets`, method: "POST", body: NEW_PET, expect: 201, pid: server.pid };
    const result = await load({ ...target, headers: { "content-type": "application/json" }, seconds: ctx.plan.postSeconds });
    ctx.log(`json-server POST at 10k: ${summary(result)}`);
    ctx.runs["json-server POST at 10k"] = result;
    return result;
  });
  const post10k = await withPetstore(ctx, "petstore-10k.json", (server) => postRun(ctx, server, "10k"));
  const big = await withPetstore(ctx, "petstore-100k.json", (server) => hundredThousand(ctx, server));
  const limiter = await limiterPause({ root, work, seconds: plan.limiterSeconds, log });
  const metricsPercent = metricsCost(root, plan.metricsProcesses, plan.metricsPairs, log);
  ctx.runs.limiterSaves = limiter;
  const store = storeRows(big);
  const clientRss = await clientStreamRss();
  log(`client peak RSS over 100k pets: streamed ${clientRss.streamed.peakMb} MB, held ${clientRss.held.peakMb} MB`);
  ctx.runs.clientStreamRss = clientRss;
  const jq = await clientJq({ runs: plan.jqRuns });
  log(`--jq over 10k pets: pets list ${jq.list.ms.toFixed(0)} ms, api --paginate ${jq.api.ms.toFixed(0)} ms`);
  ctx.runs.clientJq = jq;
  // One scenario that cannot run must not cost the table of all the others.
  const events = await eventsRows(ctx, plan.events).catch((error) => {
    log(`events scenario failed: ${error.stack ?? error}`);
    return [row({ id: "8", scenario: "event streams", figure: NaN, unit: "", problem: `failed: ${error.message}` })];
  });
  const webhooks = await webhooksRows(ctx, plan.webhooks).catch((error) => {
    log(`webhooks scenario failed: ${error.stack ?? error}`);
    return [row({ id: "W", scenario: "webhook deliveries", figure: NaN, unit: "", problem: `failed: ${error.message}` })];
  });
  const metricsRow = row({ id: "1", scenario: `  /metrics on: extra CPU per request (in-process, interleaved, ${plan.metricsProcesses === 1 ? "one process" : `median of ${plan.metricsProcesses} processes`})`, figure: metricsPercent,
    unit: "%", goal: ["<=", 3], absolute: true });
  const million = await millionRows(ctx, join(work, SERVE_CONFIG)).catch((error) => {
    log(`1M pets scenario failed: ${error.stack ?? error}`);
    return [row({ id: "3", scenario: "1M pets", figure: NaN, unit: "", problem: `failed: ${error.message}` })];
  });
  const search = await searchRows(ctx, join(work, SERVE_CONFIG)).catch((error) => {
    log(`search rows failed: ${error.stack ?? error}`);
    return [row({ id: "9", scenario: "finding pets", figure: NaN, unit: "", problem: `failed: ${error.message}` })];
  });
  const ephemeral = await ephemeralRows(ctx).catch((error) => {
    log(`throwaway server scenario failed: ${error.stack ?? error}`);
    return [row({ id: "T", scenario: "serve --ephemeral", figure: NaN, unit: "", problem: `failed: ${error.message}` })];
  });
  return { rows: [...rowsOf({ get, jsonServerPost, post10k, big, limiter }), ...million, metricsRow, ...store, ...clientRssRows(clientRss), ...clientJqRows(jq), ...events, ...webhooks, ...search, ...ephemeral], runs: ctx.runs };
}

/**
 * Issue 18's cost of metrics: scripts/bench/metrics-cost.mjs, scenario 1 through app.fetch with
 * /metrics off and on, interleaved in `pairs` pairs of batches, in `processes` processes; the
 * median of theirs. One process is not enough: each process's JIT lays out and inlines the two
 * paths its own way, and five processes of the same build read from -1.1% to +3.6%.
 */
function metricsCost(root, processes, pairs, log) {
  const percents = [];
  for (let i = 0; i < processes; i++) {
    const output = execFileSync(process.execPath, [join(root, "scripts/bench/metrics-cost.mjs")], {
      encoding: "utf8",
      env: { ...process.env, PAIRS: String(pairs) },
    });
    for (const line of output.trim().split("\n")) log(line);
    percents.push(Number(/interleaved pairs (-?[\d.]+)%/.exec(output)?.[1]));
  }
  return median(percents);
}

async function seed({ work, log }) {
  log("seeding 1k, 10k and 100k pets");
  await mkdir(work, { recursive: true });
  // Callers without a valid key are counted per IP: without this, scenario 4's bad key would
  // be answered 429 after the free plan's 60 a minute instead of 401.
  await writeFile(join(work, SERVE_CONFIG), JSON.stringify({ anonymous: UNLIMITED }));
  await writePetstoreDb(join(work, "petstore-1k.json"), 1_000);
  await writePetstoreDb(join(work, "petstore-10k.json"), 10_000);
  await writePetstoreDb(join(work, "petstore-100k.json"), 100_000);
  await writeJsonServerDb(join(work, "json-server-1k.json"), 1_000);
  await writeJsonServerDb(join(work, "json-server-10k.json"), 10_000);
}

/**
 * Scenarios 1, 4 and 5, and 2 at 1k pets, on one server with 1k pets beside both baselines.
 * The GET runs alternate in rounds so that noise hits them alike; the best round of each counts.
 */
async function getComparisons(ctx) {
  const bare = await startScript("bare node:http", ctx, "bare-server.mjs");
  const fastify = await startScript("fastify peer", ctx, "peers/fastify-server.mjs");
  const express = await startScript("express peer", ctx, "peers/express-server.mjs");
  // Issue 20: the same scenario 1 over PostgreSQL + Redis, in the same rounds (a problem row when it cannot start).
  const postgres = await startPostgresPetstore({ ...ctx, config: join(ctx.work, SERVE_CONFIG), fileDb: join(ctx.work, "petstore-1k.json") });
  const peer = (server) => ({ url: `http://127.0.0.1:${server.ready}${LIST}`, headers: bearer(SECRETS.load), expect: 200, pid: server.pid });
  try {
    return await withJsonServer(ctx, "json-server-1k.json", (jsonServer) =>
      withPetstore(ctx, "petstore-1k.json", async (server) => {
        const origin = server.origin;
        await exhaust(origin);
        const targets = {
          bare: { url: `http://127.0.0.1:${bare.ready}${LIST}`, headers: {}, expect: 200, pid: bare.pid },
          fastify: peer(fastify),
          express: peer(express),
          jsonServer: { url: `${jsonServer.origin}/pets?_limit=20`, headers: {}, expect: 200, pid: jsonServer.pid },
          petstore: { url: origin + LIST, headers: bearer(SECRETS.load), expect: 200, pid: server.pid },
          exhausted: { url: origin + LIST, headers: bearer(SECRETS.exhausted), expect: 429, pid: server.pid },
          badKey: { url: origin + LIST, headers: bearer(SECRETS.unknown), expect: 401, pid: server.pid },
          notModified: { url: origin + LIST, headers: { ...bearer(SECRETS.load), "if-none-match": await pageEtag(origin) }, expect: 304, pid: server.pid },
          ...compressionTargets(origin, server.pid),
          ...(postgres.problem ? {} : { postgres: postgresTarget(postgres) }),
        };
        if (targets.postgres) await warmPostgres(targets.postgres);
        const { bare: bareTarget, fastify: fastifyTarget, ...others } = targets;
        const paired = await pairedRounds(ctx, { bare: bareTarget, petstore: targets.petstore, fastify: fastifyTarget });
        const best = await alternate(ctx, others);
        const scopes = await scopedKeyPairs(ctx, server);
        const cli = cliTimes(ctx, server);
        const post1k = await postRun(ctx, server, "1k");
        return { ...best, paired, scopes, postgres: postgres.problem ? postgres : best.postgres, cli, post1k };
      }),
    );
  } finally {
    await Promise.all([bare.stop(), fastify.stop(), express.stop(), postgres.stop?.()]);
  }
}

/** A baseline or peer server under scripts/bench that prints the port it listens on. */
function startScript(name, ctx, script) {
  return startProcess(name, process.execPath, [join(ctx.root, "scripts/bench", script)], {
    ready: (output) => /listening on (\d+)/.exec(output)?.[1],
  });
}

async function alternate(ctx, targets) {
  const rounds = await takeTurns(ctx, targets, { rounds: ctx.plan.rounds, runsKey: (name) => `GET ${name}` });
  return Object.fromEntries(Object.keys(targets).map((name) => [name, bestRun(rounds.map((round) => round[name]))]));
}

/**
 * Scenario 1 against node:http and the fastify peer. On this VM a server's rate moves by a third
 * from one run of seconds to the next, whatever runs: the best round of each, taken rounds apart,
 * compared one server's lucky round with another's unlucky one (0.68 against node:http in one run
 * whose paired rounds read 0.86). So petstore runs right between the two, the order turned round
 * every other round (node:http, petstore, fastify; then fastify, petstore, node:http), each ratio
 * is taken within its round, and the median of the rounds' ratios counts.
 */
async function pairedRounds(ctx, targets) {
  const rounds = await takeTurns(ctx, targets, { rounds: ctx.plan.pairedRounds, turn: true, runsKey: (name) => `GET ${name}, paired rounds` });
  for (const [i, round] of rounds.entries()) {
    ctx.log(`paired round ${i + 1}: petstore / node:http ${(round.petstore.rps / round.bare.rps).toFixed(2)}, petstore / fastify ${(round.petstore.rps / round.fastify.rps).toFixed(2)}`);
  }
  const of = (name) => rounds.map((round) => round[name]);
  return {
    rounds: rounds.length,
    petstore: medianRun(of("petstore")),
    bare: medianRun(of("bare")),
    fastify: medianRun(of("fastify")),
    vsBare: median(rounds.map((round) => round.petstore.rps / round.bare.rps)),
    vsFastify: median(rounds.map((round) => round.petstore.rps / round.fastify.rps)),
    best: { petstore: bestRun(of("petstore")), bare: bestRun(of("bare")), fastify: bestRun(of("fastify")) },
    problem: [...of("petstore"), ...of("bare"), ...of("fastify")].find((run) => run.problem)?.problem,
  };
}

/** The ETag of the first page, for the If-None-Match runs (nothing changes the pets during them). */
async function pageEtag(origin) {
  const etag = (await fetch(origin + LIST, { headers: bearer(SECRETS.load) })).headers.get("etag");
  if (etag === null) throw new Error("the first page has no ETag");
  return etag;
}

/** Uses up the exhausted key's one request a day; from then on every answer is a 429. */
async function exhaust(origin) {
  let status = 0;
  for (let i = 0; i < 3; i++) {
    status = (await fetch(origin + LIST, { headers: bearer(SECRETS.exhausted) })).status;
  }
  if (status !== 429) throw new Error(`the exhausted key still gets ${status}`);
}

function cliTimes(ctx, server) {
  ctx.log(`timing the CLI, ${ctx.plan.cliRuns} runs each`);
  const bin = join(ctx.root, "bin/petstore.js");
  const node = process.execPath;
  const env = {
    ...process.env,
    NO_COLOR: "1",
    PETSTORE_CONFIG: join(ctx.work, "no-cli-config.json"),
    PETSTORE_BASE_URL: `${server.origin}/v1`,
    PETSTORE_API_KEY: SECRETS.load,
  };
  const executable = join(ctx.root, "release/petstore-linux-x64");
  const times = wallTimes(
    {
      "node -e ''": [node, ["-e", ""]],
      "petstore --help": [node, [bin, "--help"]],
      "petstore pets list --json": [node, [bin, "pets", "list", "--json"]],
      // The single executable (npm run package), in the same turns.
      "executable --help": [executable, ["--help"]],
      "executable pets list --json": [executable, ["pets", "list", "--json"]],
    },
    { runs: ctx.plan.cliRuns, env },
  );
  ctx.runs.cli = times;
  return times;
}

async function postRun(ctx, server, size) {
  const result = await load({
    url: server.origin + "/v1/pets",
    method: "POST",
    headers: postHeaders,
    body: NEW_PET,
    seconds: ctx.plan.postSeconds,
    expect: 201,
    pid: server.pid,
  });
  ctx.log(`petstore POST at ${size}: ${summary(result)}`);
  ctx.runs[`petstore POST at ${size}`] = result;
  return result;
}

/** Scenarios 3 and 6, then 2 at 100k pets. */
async function hundredThousand(ctx, server) {
  const url = server.origin + SOLD;
  await load({ url, headers: bearer(SECRETS.load), seconds: ctx.plan.warmupSeconds, expect: 200 });
  const sold = await load({
    url,
    headers: bearer(SECRETS.load),
    seconds: ctx.plan.seconds,
    connections: LATENCY_CONNECTIONS,
    expect: 200,
    pid: server.pid,
  });
  ctx.log(`status=sold at 100k: ${summary(sold)}`);
  ctx.runs["GET status=sold at 100k"] = sold;
  const memory = memoryOf(server.pid);
  ctx.runs["memory at 100k"] = memory;
  // At 100k pets, as the row says, on a server at rest like the 1k one: measured after the POST
  // and PATCH runs it was taken at ~160k pets while the journal's compaction of their tens of
  // thousands of writes could still be running (0.59x in one run, 1.05-1.29x in others).
  const inventory = await withPetstore(ctx, "petstore-1k.json", (small) => inventoryPairs(ctx, server, small));
  const post100k = await postRun(ctx, server, "100k");
  const afterPost = memoryOf(server.pid);
  ctx.runs["memory after POST at 100k"] = afterPost;
  const patch100k = await patchRun(ctx, server);
  const orders100k = await ordersRun(ctx, server, post100k.total);
  return { sold, memory, post100k, afterPost, patch100k, ...inventory, orders100k };
}

/** PATCHes spread over the 100k seeded pets, each a new name, so that every one is a real change. */
async function patchRun(ctx, server) {
  let n = 0;
  const setupRequest = (request) => {
    n++;
    return { ...request, path: `/v1/pets/${1 + (n % 100_000)}`, body: JSON.stringify({ name: `Patched ${n}` }) };
  };
  const result = await load({
    url: server.origin + "/v1/pets/1",
    method: "PATCH",
    headers: patchHeaders,
    body: JSON.stringify({ name: "Patched" }),
    setupRequest,
    seconds: ctx.plan.postSeconds,
    expect: 200,
    pid: server.pid,
  });
  ctx.log(`petstore PATCH at 100k: ${summary(result)}`);
  ctx.runs["petstore PATCH at 100k"] = result;
  return result;
}

function withPetstore(ctx, db, work) {
  ctx.log(`starting petstore serve over ${db}`);
  return withPetstoreServer({ root: ctx.root, db: join(ctx.work, db), config: join(ctx.work, SERVE_CONFIG) }, work);
}

async function withJsonServer(ctx, db, work) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  ctx.log(`starting json-server over ${db}`);
  const server = await startProcess(
    "json-server",
    process.execPath,
    [join(BENCH_DIR, "node_modules/json-server/lib/cli/bin.js"), "--quiet", "--host", "127.0.0.1", "--port", String(port), db],
    { cwd: ctx.work, probe: () => fetch(`${origin}/pets?_limit=1`).then((r) => r.ok, () => false) },
  );
  try {
    return await work({ pid: server.pid, origin });
  } finally {
    await server.stop();
  }
}

function rowsOf({ get, jsonServerPost, post10k, big, limiter }) {
  const rps = "req/s";
  const { cli, paired } = get;
  const nodeE = cli["node -e ''"].median;
  return [
    row({ id: "1", scenario: `GET /v1/pets?limit=20, key + limits, 50 conn (median of ${paired.rounds} paired round${paired.rounds === 1 ? "" : "s"})`,
      figure: paired.petstore.rps, unit: rps, baseline: paired.bare.rps, baselineName: "node:http", ratio: paired.vsBare,
      goal: [">=", 0.75], problem: paired.problem }),
    row({ id: "1", scenario: "  the same, against fastify + @fastify/rate-limit", figure: paired.petstore.rps, unit: rps,
      baseline: paired.fastify.rps, baselineName: "fastify peer", ratio: paired.vsFastify, goal: [">=", 1.0], problem: paired.problem }),
    row({ id: "1", scenario: "    best paired round of each, against node:http", figure: paired.best.petstore.rps, unit: rps,
      baseline: paired.best.bare.rps, baselineName: "node:http" }),
    row({ id: "1", scenario: "    best paired round of each, against fastify", figure: paired.best.petstore.rps, unit: rps,
      baseline: paired.best.fastify.rps, baselineName: "fastify peer" }),
    scopeRow(get.scopes),
    row({ id: "1", scenario: "  the same, against express + express-rate-limit", figure: get.petstore.rps, unit: rps,
      baseline: get.express.rps, baselineName: "express peer", goal: [">=", 4], problem: get.express.problem }),
    row({ id: "1", scenario: "  the same, against json-server", figure: get.petstore.rps, unit: rps,
      baseline: get.jsonServer.rps, baselineName: "json-server", goal: [">=", 6], problem: get.jsonServer.problem }),
    ...postgresRows(get.petstore, get.postgres),
    row({ id: "1", scenario: "  p99 latency (median paired round)", figure: paired.petstore.p99, unit: "ms",
      baseline: paired.bare.p99, baselineName: "node:http" }),
    row({ id: "1", scenario: "  server CPU per request; ratio node:http / petstore", figure: paired.petstore.cpuUsPerRequest,
      unit: "µs", baseline: paired.bare.cpuUsPerRequest, baselineName: "node:http", inverse: true }),
    row({ id: "2", scenario: "POST /v1/pets at 1k pets, 50 conn", figure: get.post1k.rps, unit: rps,
      problem: get.post1k.problem }),
    row({ id: "2", scenario: "POST /v1/pets at 10k pets, 50 conn", figure: post10k.rps, unit: rps,
      baseline: jsonServerPost.rps, baselineName: "json-server at 10k", goal: [">=", 5],
      problem: post10k.problem ?? jsonServerPost.problem }),
    row({ id: "2", scenario: "POST /v1/pets at 100k pets, 50 conn", figure: big.post100k.rps, unit: rps,
      baseline: get.post1k.rps, baselineName: "petstore at 1k", goal: [">=", 0.5], problem: big.post100k.problem }),
    row({ id: "2", scenario: "PATCH /v1/pets/{id} at 100k pets, 50 conn", figure: big.patch100k.rps, unit: rps,
      baseline: big.post100k.rps, baselineName: "POST at 100k", goal: [">=", 0.8], problem: big.patch100k.problem }),
    // Reported; the goal is the ratio of 1M to 1k (million.mjs): an absolute bound failed on a busy machine.
    row({ id: "3", scenario: `GET ?status=sold&limit=100 at 100k, p99, ${LATENCY_CONNECTIONS} conn`, figure: big.sold.p99,
      unit: "ms", problem: big.sold.problem }),
    row({ id: "4", scenario: "GET with an exhausted key (429)", figure: get.exhausted.rps, unit: rps,
      baseline: get.petstore.rps, baselineName: "scenario 1", goal: [">=", 0.9], problem: get.exhausted.problem }),
    row({ id: "4", scenario: "GET with a bad key (401)", figure: get.badKey.rps, unit: rps,
      baseline: get.petstore.rps, baselineName: "scenario 1", goal: [">=", 0.9], problem: get.badKey.problem }),
    row({ id: "4", scenario: "GET answered 304 (If-None-Match), server CPU per request", figure: get.notModified.cpuUsPerRequest,
      unit: "µs", baseline: get.badKey.cpuUsPerRequest, baselineName: "401 (bad key)", inverse: true, goal: [">=", 1.0],
      problem: get.notModified.problem ?? get.badKey.problem }),
    compressionRow(get),
    row({ id: "5", scenario: `petstore --help, median of ${cli["node -e ''"].runs}`, figure: cli["petstore --help"].median,
      unit: "ms", baseline: nodeE, baselineName: "node -e ''", goal: ["<=", 1.3] }),
    row({ id: "5", scenario: "petstore pets list --json", figure: cli["petstore pets list --json"].median,
      unit: "ms", baseline: nodeE, baselineName: "node -e ''", goal: ["<=", 2.0] }),
    row({ id: "5", scenario: "  the single executable: --help", figure: cli["executable --help"].median,
      unit: "ms", baseline: nodeE, baselineName: "node -e ''", goal: ["<=", 1.3] }),
    row({ id: "5", scenario: "  the single executable: pets list --json", figure: cli["executable pets list --json"].median,
      unit: "ms", baseline: nodeE, baselineName: "node -e ''", goal: ["<=", 2.0] }),
    row({ id: "6", scenario: "server RSS with 100k pets", figure: big.memory.rssMb, unit: "MB",
      goal: ["<", 150], absolute: true }),
    row({ id: "6", scenario: "  peak RSS, after the POST run at 100k", figure: big.afterPost.peakMb, unit: "MB" }),
    row({ id: "7", scenario: "limiter saves, 100k subjects, 20k req/s, through midnight: worst event-loop pause",
      figure: limiter.maxMs, unit: "ms", goal: ["<", 5], absolute: true }),
    row({ id: "7", scenario: "  p99 event-loop delay (1 ms resolution)", figure: limiter.p99Ms, unit: "ms" }),
    ...limiterControlRows(limiter),
  ];
}
