// Issue 15's rows: GET /v1/events with many open streams. Creates at a steady rate while N
// streams follow: delivery latency (201 to the event reaching every subscriber), server RSS
// with the streams against without, and GET /v1/pets throughput with N idle streams against none.
// Alone, with small numbers: node scripts/bench/events.mjs --streams 20 --rate 50 --seconds 2
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Pool } from "undici";
import { load } from "./lib/load.mjs";
import { withPetstoreServer } from "./lib/petstore-server.mjs";
import { killAll, memoryOf } from "./lib/processes.mjs";
import { formatTable, row } from "./lib/report.mjs";
import { SECRETS, UNLIMITED, writePetstoreDb } from "./lib/seed.mjs";

const LIST = "/v1/pets?limit=20";
// The server allows 5 open streams per key: N streams need N / 5 keys.
const STREAMS_PER_KEY = 5;
const streamSecret = (n) => `ps_bench_stream_${String(n).padStart(28, "0")}`;

/** Runs the scenario on a server of its own; returns its rows. `streams` and `rate` default to the 1,000 and 1,000/s. */
export async function eventsRows(ctx, { streams = 1_000, rate = 1_000, seconds = ctx.plan.postSeconds } = {}) {
  const db = join(ctx.work, "petstore-events.json");
  await writeDbWithStreamKeys(db, Math.ceil(streams / STREAMS_PER_KEY));
  return withServer(ctx, db, async (server) => {
    const listUrl = server.origin + LIST;
    const headers = { authorization: `Bearer ${SECRETS.load}` };
    await load({ url: listUrl, headers, seconds: ctx.plan.warmupSeconds, expect: 200 });
    const getWithout = await load({ url: listUrl, headers, seconds: ctx.plan.seconds, expect: 200, pid: server.pid });
    const rssWithout = memoryOf(server.pid).rssMb;
    ctx.log(`events: without streams ${getWithout.rps.toFixed(0)} req/s, RSS ${rssWithout.toFixed(0)} MB; opening ${streams} streams`);
    const subscribers = await openStreams(server.origin, streams);
    try {
      const delivery = await createsAtRate(server.origin, subscribers, rate, seconds);
      ctx.log(`events: ${delivery.created} creates, p99 delivery ${delivery.p99.toFixed(1)} ms, ${delivery.missing} deliveries missing`);
      const rssWith = memoryOf(server.pid).rssMb;
      const getWith = await load({ url: listUrl, headers, seconds: ctx.plan.seconds, expect: 200, pid: server.pid });
      ctx.log(`events: with ${streams} idle streams ${getWith.rps.toFixed(0)} req/s, RSS ${rssWith.toFixed(0)} MB`);
      ctx.runs.events = { streams, rate, seconds, delivery, getWithout, getWith, rssWithout, rssWith };
      const missing = delivery.missing > 0 ? `${delivery.missing} deliveries missing` : undefined;
      return [
        row({ id: "8", scenario: `events: ${streams} streams, creates at ${rate}/s: delivery p99`, figure: delivery.p99, unit: "ms",
          goal: ["<", 100], absolute: true, problem: missing }),
        row({ id: "8", scenario: `  server RSS with ${streams} streams`, figure: rssWith, unit: "MB", baseline: rssWithout,
          baselineName: "no streams", goal: ["<", 2] }),
        row({ id: "8", scenario: `  GET /v1/pets?limit=20 with ${streams} idle streams`, figure: getWith.rps, unit: "req/s",
          baseline: getWithout.rps, baselineName: "no streams", goal: [">=", 0.9], problem: getWith.problem ?? getWithout.problem }),
      ];
    } finally {
      for (const subscriber of subscribers) subscriber.close();
    }
  });
}

/** The 1k-pet bench db, plus keys for the streams. */
async function writeDbWithStreamKeys(path, keys) {
  await writePetstoreDb(path, 1_000);
  const data = JSON.parse(await readFile(path, "utf8"));
  const createdAt = new Date().toISOString();
  for (let n = 0; n < keys; n++) {
    const secret = streamSecret(n);
    const hash = createHash("sha256").update(secret, "utf8").digest("hex");
    data.keys.push({ id: `key_stream${n}`, hash, prefix: secret.slice(0, 9), name: `stream ${n}`, plan: "enterprise", admin: false,
      limits: UNLIMITED, createdAt, revokedAt: null, lastUsedAt: null });
  }
  await writeFile(path, JSON.stringify(data));
}

/** N streams on plain sockets; each notes when each pet's event reached it. */
async function openStreams(origin, count) {
  const url = new URL(`${origin}/v1/events?types=pet.created`);
  const opened = [];
  for (let n = 0; n < count; n++) {
    opened.push(
      new Promise((resolve, reject) => {
        const seen = new Map();
        const req = request(url, { headers: { authorization: `Bearer ${streamSecret(Math.floor(n / STREAMS_PER_KEY))}` }, agent: false }, (res) => {
          if (res.statusCode !== 200) return reject(new Error(`stream ${n}: HTTP ${res.statusCode}`));
          res.setEncoding("utf8");
          let tail = "";
          res.on("data", (chunk) => {
            const now = performance.now();
            const text = tail + chunk;
            for (const match of text.matchAll(/"data":\{"id":(\d+)/g)) seen.set(Number(match[1]), now);
            tail = text.slice(-40);
          });
          resolve({ seen, close: () => req.destroy() });
        });
        req.on("error", reject);
        req.end();
      }),
    );
  }
  return Promise.all(opened);
}

/** POSTs at `rate` a second for `seconds`, then waits for the stragglers; latency per pet = last subscriber's arrival - its 201. */
async function createsAtRate(origin, subscribers, rate, seconds) {
  const createdAt = new Map();
  const headers = { authorization: `Bearer ${SECRETS.load}`, "content-type": "application/json" };
  const body = JSON.stringify({ name: "Streamed", categoryId: 1 });
  const tickMs = 10;
  const perTick = rate / (1000 / tickMs);
  const pending = [];
  let owed = 0;
  // A bounded pool, as a real client has: fetch would open a connection per request in flight, and
  // a thousand connects beside a thousand streams time out in the listen backlog.
  const pool = new Pool(origin, { connections: 32 });
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    owed += perTick;
    for (; owed >= 1; owed--) {
      pending.push(
        pool.request({ path: "/v1/pets", method: "POST", headers, body }).then(async (response) => {
          const pet = await response.body.json();
          createdAt.set(pet.id, performance.now());
        }),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, tickMs));
  }
  await Promise.all(pending);
  await pool.close();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const latencies = [];
  let missing = 0;
  for (const [id, at] of createdAt) {
    let last = at;
    for (const subscriber of subscribers) {
      const arrived = subscriber.seen.get(id);
      if (arrived === undefined) missing++;
      else last = Math.max(last, arrived);
    }
    latencies.push(last - at);
  }
  latencies.sort((a, b) => a - b);
  return { created: createdAt.size, p99: latencies[Math.floor(latencies.length * 0.99)] ?? NaN, missing };
}

function withServer(ctx, db, work) {
  // --profile DIR (alone only): the server writes a CPU profile there when it stops.
  const nodeArgs = ctx.profileDir ? ["--cpu-prof", `--cpu-prof-dir=${ctx.profileDir}`] : [];
  return withPetstoreServer({ root: ctx.root, db, name: "petstore serve (events)", nodeArgs }, work);
}

// Run alone: the scenario only, with the numbers given (the whole bench runs it from scenarios.mjs).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { streams: { type: "string", default: "1000" }, rate: { type: "string", default: "1000" }, seconds: { type: "string", default: "5" }, profile: { type: "string" } } });
  const seconds = Number(values.seconds);
  const work = await mkdtemp(join(tmpdir(), "petstore-bench-events-"));
  process.once("exit", killAll);
  try {
    const ctx = { root: fileURLToPath(new URL("../../", import.meta.url)), work, plan: { seconds, warmupSeconds: 0.5, postSeconds: seconds }, runs: {}, log: (line) => console.error(line), profileDir: values.profile };
    const rows = await eventsRows(ctx, { streams: Number(values.streams), rate: Number(values.rate), seconds });
    console.log(formatTable(rows));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
