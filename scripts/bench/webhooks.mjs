// The webhook rows: pets created at a steady rate while 10 endpoints receive every pet.created,
// delivery latency from the create's 201 to the receiver's request; the same with one endpoint
// that never answers (the other nine must not feel it); and GET /v1/pets on a server with the
// endpoints configured and idle against one with none, in paired rounds.
// Alone, with small numbers: node scripts/bench/webhooks.mjs --rate 50 --seconds 2
import { fork } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Pool } from "undici";
import { startPetstore } from "./lib/petstore-server.mjs";
import { cpuMsOf, killAll, pinSelf, runQueueMsOf } from "./lib/processes.mjs";
import { formatTable, row } from "./lib/report.mjs";
import { median, medianRun, takeTurns } from "./lib/rounds.mjs";
import { SECRETS, writePetstoreDb } from "./lib/seed.mjs";

const LIST = "/v1/pets?limit=20";
/** After the last create, how long the healthy receivers have to see every delivery. */
const DRAIN_MS = 10_000;
const P99_GOAL_MS = 200;
/** Attempts in flight per endpoint (serve --webhook-max-in-flight); the default is 4. */
const IN_FLIGHT = 16;

/** Both processes' clock: ms since this reading of CLOCK_MONOTONIC (see lib/webhook-receivers.mjs). */
const EPOCH = process.hrtime.bigint();
const now = () => Number(process.hrtime.bigint() - EPOCH) / 1e6;

/** The three rows; `endpoints`, `rate` and `seconds` default to the full bench's (10, 500/s, 20 s). */
export async function webhooksRows(ctx, { endpoints = 10, rate = 500, seconds = 20 } = {}) {
  const all = await deliveryRun(ctx, { healthy: endpoints, silent: 0, rate, seconds, name: "all answering" });
  const oneSilent = await deliveryRun(ctx, { healthy: endpoints - 1, silent: 1, rate, seconds, name: "one never answering" });
  const get = await getPairs(ctx, endpoints);
  ctx.runs.webhooks = { endpoints, rate, seconds, all, oneSilent, get };
  return [
    row({ id: "W", scenario: `webhooks: ${endpoints} endpoints (${IN_FLIGHT} in flight each), creates at ${rate}/s for ${seconds} s: delivery p99 (201 to the receiver)`,
      figure: all.p99, unit: "ms", goal: ["<", P99_GOAL_MS], absolute: true, problem: deliveryProblem(all, rate) }),
    row({ id: "W", scenario: `  the same, 1 of the ${endpoints} never answering: the other ${endpoints - 1}'s delivery p99`,
      figure: oneSilent.p99, unit: "ms", goal: ["<", P99_GOAL_MS], absolute: true, problem: deliveryProblem(oneSilent, rate) }),
    row({ id: "W", scenario: `  GET /v1/pets?limit=20 with ${endpoints} idle endpoints (median of ${get.rounds} paired round${get.rounds === 1 ? "" : "s"})`,
      figure: get.with.rps, unit: "req/s", baseline: get.without.rps, baselineName: "no endpoints", ratio: get.ratio,
      goal: [">=", 0.95], problem: get.problem }),
  ];
}

/** A server of its own with `healthy` + `silent` endpoints; creates at `rate` for `seconds`; latencies at the healthy ones. */
async function deliveryRun(ctx, { healthy, silent, rate, seconds, name }) {
  const receivers = await openReceivers(healthy, silent);
  try {
    return await withServer(ctx, `petstore-webhooks-${healthy}-${silent}.json`, async (server) => {
      await addEndpoints(server.origin, [...receivers.urls.healthy, ...receivers.urls.silent]);
      const result = await createsAtRate(server, receivers, rate, seconds);
      // Before the server stops: it waits for the attempts under way, which a silent receiver holds for the send timeout.
      await receivers.close();
      ctx.log(
        `webhooks (${name}): ${result.created} creates (${result.createdPerSecond.toFixed(0)}/s) to ${healthy} answering endpoint${healthy === 1 ? "" : "s"}` +
          `${silent > 0 ? ` and ${silent} silent` : ""}: delivery p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, max ${result.max.toFixed(1)} ms; ` +
          `${result.missing} missing after ${(result.drainedAfterMs / 1000).toFixed(1)} s of drain (per endpoint ${result.missingPerEndpoint.join(" ")}), ` +
          `${result.duplicates} duplicates${silent > 0 ? `, ${result.silentRequests} requests reached the silent endpoint` : ""}; ` +
          `server CPU ${result.serverCpuMsPerCreate.toFixed(3)} ms per create, waiting for its core ${(result.serverWaitShare * 100).toFixed(0)}% of the time; on the load core: receivers ${(result.receiverCpuShare * 100).toFixed(0)}%, ` +
          `creating process ${(result.creatorCpuShare * 100).toFixed(0)}% of a core`,
      );
      return result;
    });
  } finally {
    await receivers.close();
  }
}

/**
 * Two servers over the same 1k pets, one with `endpoints` endpoints (at live receivers, idle: a
 * GET emits no event) and one with none, taking turns in the plan's paired rounds, the order
 * turned every other round; the median of the rounds' ratios counts.
 */
async function getPairs(ctx, endpoints) {
  const receivers = await openReceivers(endpoints, 0);
  const withEndpoints = await startServer(ctx, "petstore-webhooks-get-with.json");
  const without = await startServer(ctx, "petstore-webhooks-get-without.json");
  try {
    await addEndpoints(withEndpoints.origin, receivers.urls.healthy);
    const target = (server) => ({ url: server.origin + LIST, headers: { authorization: `Bearer ${SECRETS.load}` }, expect: 200, pid: server.pid });
    const withName = `${endpoints} idle endpoints`;
    const rounds = await takeTurns(ctx, { "no endpoints": target(without), [withName]: target(withEndpoints) }, {
      rounds: ctx.plan.pairedRounds,
      turn: true,
      runsKey: (name) => `webhooks: GET with ${name}, paired rounds`,
    });
    const of = (name) => rounds.map((round) => round[name]);
    const ratios = rounds.map((round) => round[withName].rps / round["no endpoints"].rps);
    ctx.log(`webhooks: GET with ${endpoints} idle endpoints / with none, by round: ${ratios.map((ratio) => ratio.toFixed(3)).join(", ")}`);
    return {
      rounds: rounds.length,
      with: medianRun(of(withName)),
      without: medianRun(of("no endpoints")),
      ratio: median(ratios),
      problem: [...of(withName), ...of("no endpoints")].find((run) => run.problem)?.problem,
    };
  } finally {
    await Promise.all([withEndpoints.stop(), without.stop()]);
    await receivers.close();
  }
}

async function startServer(ctx, file) {
  const db = join(ctx.work, file);
  await writePetstoreDb(db, 1_000);
  // --profile DIR (alone only): the server writes a CPU profile there when it stops.
  const nodeArgs = ctx.profileDir ? ["--cpu-prof", `--cpu-prof-dir=${ctx.profileDir}`] : [];
  // 500 events a second to one endpoint need more than the default 4 attempts in flight (a round
  // trip includes the server's own busy loop): a self-hoster expecting such rates raises it too.
  const args = ["--webhooks-allow-private", "--webhook-max-in-flight", String(IN_FLIGHT)];
  return startPetstore({ root: ctx.root, db, args, nodeArgs, name: `petstore serve (${file})` });
}

async function withServer(ctx, file, work) {
  const server = await startServer(ctx, file);
  try {
    return await work(server);
  } finally {
    await server.stop();
  }
}

/** One endpoint per URL, for pet.created only, through the API as an operator would. */
async function addEndpoints(origin, urls) {
  for (const url of urls) {
    const response = await fetch(`${origin}/v1/webhooks`, {
      method: "POST",
      headers: { authorization: `Bearer ${SECRETS.admin}`, "content-type": "application/json" },
      body: JSON.stringify({ url, types: ["pet.created"], description: "bench receiver" }),
    });
    if (response.status !== 201) throw new Error(`POST /v1/webhooks ${url}: ${response.status} ${await response.text()}`);
  }
}

/** The receivers (lib/webhook-receivers.mjs) in a child process; it inherits this process's core. */
async function openReceivers(healthy, silent) {
  const child = fork(fileURLToPath(new URL("./lib/webhook-receivers.mjs", import.meta.url)), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const next = () =>
    new Promise((resolve, reject) => {
      const exited = (code) => reject(new Error(`the receiver process exited (${code})`));
      child.once("exit", exited);
      child.once("message", (message) => {
        child.off("exit", exited);
        resolve(message);
      });
    });
  child.send({ open: { healthy, silent, epoch: String(EPOCH) } });
  const answer = await next();
  if (answer.failed) throw new Error(`opening the receivers: ${answer.failed}`);
  return {
    urls: answer.urls,
    start: () => child.send({ start: true }),
    async measure(created) {
      child.send({ created: [...created], drainMs: DRAIN_MS });
      return (await next()).result;
    },
    close: () =>
      new Promise((resolve) => {
        if (!child.connected) return resolve();
        child.once("exit", resolve);
        child.send({ close: true });
      }),
  };
}

/**
 * POSTs at `rate` a second for `seconds` (paced by the clock, as in events.mjs), noting when each
 * pet's 201 arrived (its head, before its body is read), then asks the receivers when each
 * delivery reached them.
 */
async function createsAtRate(server, receivers, rate, seconds) {
  const createdAt = new Map();
  const headers = { authorization: `Bearer ${SECRETS.load}`, "content-type": "application/json" };
  const body = JSON.stringify({ name: "Hooked", categoryId: 1 });
  const pending = [];
  const pool = new Pool(server.origin, { connections: 32 });
  receivers.start();
  const serverCpuBefore = cpuMsOf(server.pid);
  const serverWaitBefore = runQueueMsOf(server.pid);
  const ownCpuBefore = process.cpuUsage();
  const started = now();
  const end = started + seconds * 1000;
  for (let at = started; at < end; at = now()) {
    const owed = Math.floor(((at - started) / 1000) * rate) + 1;
    while (pending.length < owed) {
      pending.push(
        pool.request({ path: "/v1/pets", method: "POST", headers, body }).then(async (response) => {
          const answeredAt = now();
          const pet = await response.body.json();
          if (response.statusCode !== 201) throw new Error(`POST /v1/pets: ${response.statusCode} ${JSON.stringify(pet)}`);
          createdAt.set(pet.id, answeredAt);
        }),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await Promise.all(pending);
  const wallMs = now() - started;
  const ownCpu = process.cpuUsage(ownCpuBefore);
  await pool.close();
  const measured = await receivers.measure(createdAt);
  // Counted to the end of the drain: the deliveries are the server's work of these creates too.
  const serverCpuMsPerCreate = (cpuMsOf(server.pid) - serverCpuBefore) / createdAt.size;
  const serverWaitShare = (runQueueMsOf(server.pid) - serverWaitBefore) / (now() - started);
  const latencies = Float64Array.from(measured.latencies).sort();
  return {
    ...measured,
    latencies: undefined,
    created: createdAt.size,
    createdPerSecond: createdAt.size / (wallMs / 1000),
    creatorCpuShare: (ownCpu.user + ownCpu.system) / 1000 / wallMs,
    receiverCpuShare: measured.cpuMs / measured.wallMs,
    serverCpuMsPerCreate,
    serverWaitShare,
    p50: latencies[Math.floor(latencies.length * 0.5)] ?? NaN,
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? NaN,
    max: latencies[latencies.length - 1] ?? NaN,
  };
}

/** Why a delivery figure is not the server's: deliveries missing, creates below the rate, a saturated load core. */
function deliveryProblem(result, rate) {
  const problems = [];
  if (result.missing > 0) problems.push(`${result.missing} deliveries missing (per endpoint ${result.missingPerEndpoint.join(" ")})`);
  if (result.createdPerSecond < rate * 0.95) problems.push(`creates ran at ${result.createdPerSecond.toFixed(0)}/s, not ${rate}/s`);
  // Runnable but not running: the figure is the machine's, not the server's.
  if (result.serverWaitShare > 0.25) problems.push(`the server waited for its core ${(result.serverWaitShare * 100).toFixed(0)}% of the time`);
  const loadCore = result.receiverCpuShare + result.creatorCpuShare;
  if (loadCore > 0.9) problems.push(`the receivers and the creating process used ${(loadCore * 100).toFixed(0)}% of the load core`);
  return problems.length > 0 ? problems.join("; ") : undefined;
}

// Run alone: the three rows with the numbers given (the whole bench runs them from scenarios.mjs).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { endpoints: { type: "string", default: "10" }, rate: { type: "string", default: "500" }, seconds: { type: "string", default: "20" },
      rounds: { type: "string", default: "3" }, "get-seconds": { type: "string", default: "2" }, profile: { type: "string" } },
  });
  const work = await mkdtemp(join(tmpdir(), "petstore-bench-webhooks-"));
  process.once("exit", killAll);
  pinSelf();
  try {
    const root = fileURLToPath(new URL("../../", import.meta.url));
    const plan = { seconds: Number(values["get-seconds"]), warmupSeconds: 0.5, pairedRounds: Number(values.rounds) };
    const ctx = { root, work, plan, runs: {}, log: (line) => console.error(line), profileDir: values.profile };
    const rows = await webhooksRows(ctx, { endpoints: Number(values.endpoints), rate: Number(values.rate), seconds: Number(values.seconds) });
    console.log(formatTable(rows));
  } finally {
    killAll();
    await rm(work, { recursive: true, force: true });
  }
}
