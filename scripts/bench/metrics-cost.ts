// CPU per request of scenario 1 (GET /v1/pets?limit=20 with a valid key, 1k pets) through the
// app's fetch function, without sockets: metrics off against metrics on, alternating rounds so
// that the shared machine's noise falls on both. Run: node scripts/bench/metrics-cost.mjs
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cpuUsage } from "node:process";
import { MemoryRateLimiter } from "../../src/limits/memory-rate-limiter.js";
import { defaultLimitsConfig, limitsFor } from "../../src/limits/plans.js";
import { createApp, type AppDeps } from "../../src/server/app.js";
import { environmentAdminKey } from "../../src/server/keys/admin-keys.js";
import { OutageLog } from "../../src/server/logging/outage-log.js";
import { createPrometheusMetrics } from "../../src/server/metrics/prometheus.js";
import { createLogger } from "../../src/server/request-log.js";
import { openLowdbStore } from "../../src/store/lowdb/open-lowdb-store.js";

const SECRET = "ps_bench_admin_key_0123456789abcdefghijklmnop";
const REQUESTS = Number(process.env.REQUESTS ?? 5_000);
const ROUNDS = Number(process.env.ROUNDS ?? 30);

const dir = await mkdtemp(join(tmpdir(), "petstore-metrics-cost-"));
const store = await openLowdbStore(join(dir, "db.json"), { warn: () => {} });
for (let i = 0; i < 1000; i += 100) await Promise.all(Array.from({ length: 100 }, (_, j) => store.pets.create({ name: `pet ${i + j}`, categoryId: 1, status: "available" })));
const limits = defaultLimitsConfig();
const logger = createLogger({ write: () => true }, { quiet: true, now: Date.now });
const base: AppDeps = {
  pets: store.pets,
  keys: store.keys,
  orders: store.orders,
  idempotency: store.idempotency,
  limiter: new MemoryRateLimiter({ now: Date.now }),
  limitsOf: (key) => limitsFor(key.admin ? "admin" : key.plan, key.limits, limits),
  anonymousLimits: limits.anonymous,
  environmentAdmin: environmentAdminKey(SECRET, Date.now),
  logger,
  now: Date.now,
};
const off = createApp({ ...base, outages: new OutageLog(logger, Date.now) });
const on = createApp({ ...base, outages: new OutageLog(logger, Date.now), metrics: createPrometheusMetrics() });
const request = () => new Request("http://127.0.0.1/v1/pets?limit=20", { headers: { authorization: `Bearer ${SECRET}` } });

async function round(app: typeof on): Promise<number> {
  const before = cpuUsage();
  for (let i = 0; i < REQUESTS; i++) {
    const response = await app.fetch(request());
    await response.text();
  }
  const used = cpuUsage(before);
  return (used.user + used.system) / REQUESTS;
}

// Paired short rounds, off-on then on-off: a burst of load from the other engineers on this shared
// machine falls on both halves of a pair, and the median of the pairs' ratios ignores the rest.
await round(off);
await round(on);
const ratios: number[] = [];
const offs: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const first = r % 2 === 0 ? off : on;
  const a = await round(first);
  const b = await round(first === off ? on : off);
  const [offCpu, onCpu] = first === off ? [a, b] : [b, a];
  ratios.push(onCpu / offCpu);
  offs.push(offCpu);
}
const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
const offMedian = median(offs);
console.log(`scenario 1 in-process, metrics off: median ${offMedian.toFixed(2)} µs CPU/request (${ROUNDS} rounds of ${REQUESTS})`);
console.log(`metrics on / off: median of ${ROUNDS} paired ratios ${((median(ratios) - 1) * 100).toFixed(1)}%`);

// What the metrics add to a request, alone: two clock reads, one counter and one histogram child.
const metrics = createPrometheusMetrics({ processMetrics: false });
const OPS = 1_000_000;
const t0 = cpuUsage();
for (let i = 0; i < OPS; i++) {
  const started = performance.now();
  metrics.request("/v1/pets", "GET", 200, (performance.now() - started) / 1000);
}
const t1 = cpuUsage(t0);
const added = (t1.user + t1.system) / OPS;
console.log(`added work alone: ${added.toFixed(3)} µs CPU/request = ${((added / offMedian) * 100).toFixed(1)}% of a request`);
await store.close();
await rm(dir, { recursive: true, force: true });
