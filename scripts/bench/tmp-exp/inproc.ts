// In-process CPU per request of scenario 1 through app.fetch (our code's share), against a floor h3 app.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cpuUsage } from "node:process";
import { H3 } from "h3";
import { FastResponse } from "srvx";
import { MemoryRateLimiter } from "../../../src/limits/memory-rate-limiter.js";
import { defaultLimitsConfig, limitsFor } from "../../../src/limits/plans.js";
import { createApp, type AppDeps } from "../../../src/server/app.js";
import { keyRecordFor } from "../../../src/server/keys/issue-key.js";
import { OutageLog } from "../../../src/server/logging/outage-log.js";
import { createPrometheusMetrics } from "../../../src/server/metrics/prometheus.js";
import { createLogger } from "../../../src/server/request-log.js";
import { openLowdbStore } from "../../../src/store/lowdb/open-lowdb-store.js";

const SECRET = "ps_bench_load_000000000000000000000000000000";
const REQUESTS = Number(process.env.REQUESTS ?? 20_000);
const ROUNDS = Number(process.env.ROUNDS ?? 10);
const dir = await mkdtemp(join(tmpdir(), "petstore-inproc-"));
const store = await openLowdbStore(join(dir, "db.json"), { warn: () => {} });
for (let i = 0; i < 1000; i += 100) await Promise.all(Array.from({ length: 100 }, (_, j) => store.pets.create({ name: `pet ${i + j}`, categoryId: 1, status: "available" })));
const big = { perMinute: 1e9, perDay: 1e12 };
await store.keys.create(keyRecordFor(SECRET, { plan: "enterprise", name: "load", admin: false, limits: big as never }, Date.now));
const limits = defaultLimitsConfig();
const logger = createLogger({ write: () => true }, { quiet: true, now: Date.now });
const deps: AppDeps = {
  pets: store.pets, keys: store.keys, orders: store.orders, idempotency: store.idempotency,
  limiter: new MemoryRateLimiter({ now: Date.now }),
  limitsOf: (key) => limitsFor(key.admin ? "admin" : key.plan, key.limits, limits),
  anonymousLimits: limits.anonymous, logger, now: Date.now,
  outages: new OutageLog(logger, Date.now), metrics: createPrometheusMetrics(),
};
const app = createApp(deps);
const pets = (await store.pets.list({ limit: 20 } as never)).pets;
const floor = new H3();
floor.use(async (_e, next) => { const r = await next(); return new FastResponse(JSON.stringify(r), { status: 200, headers: [["content-type", "application/json"]] }); });
floor.get("/v1/pets", () => pets);
const request = () => new Request("http://127.0.0.1/v1/pets?limit=20", { headers: { authorization: `Bearer ${SECRET}`, host: "127.0.0.1" } });
const check = await app.fetch(request());
if (check.status !== 200) throw new Error(`status ${check.status}: ${await check.text()}`);
async function round(a: { fetch: (r: Request) => Response | Promise<Response> }): Promise<number> {
  const before = cpuUsage();
  for (let i = 0; i < REQUESTS; i++) { const r = await a.fetch(request()); await r.text(); }
  const used = cpuUsage(before);
  return (used.user + used.system) / REQUESTS;
}
await round(app); await round(floor);
const a: number[] = [], f: number[] = [];
for (let r = 0; r < ROUNDS; r++) { a.push(await round(app)); f.push(await round(floor)); }
const med = (v: number[]) => [...v].sort((x, y) => x - y)[Math.floor(v.length / 2)]!;
console.log(`app ${med(a).toFixed(2)} µs, floor ${med(f).toFixed(2)} µs, ours ${(med(a) - med(f)).toFixed(2)} µs`);
if (process.env.PROFILE) {
  const { Session } = await import("node:inspector/promises");
  const s = new Session(); s.connect(); await s.post("Profiler.enable"); await s.post("Profiler.start");
  for (let i = 0; i < 3; i++) await round(app);
  const { profile } = await s.post("Profiler.stop");
  const { writeFileSync, mkdirSync, rmSync } = await import("node:fs");
  rmSync(process.env.PROFILE, { recursive: true, force: true }); mkdirSync(process.env.PROFILE, { recursive: true });
  writeFileSync(join(process.env.PROFILE, "p.cpuprofile"), JSON.stringify(profile));
}
process.exit(0);
