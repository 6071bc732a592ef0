// `npm run soak [-- --minutes 10] [-- --rate 200]`: the built server on a temporary file db under a
// steady mixed load for a long time. Prints a table of what it measured and exits 1 when a check
// fails: RSS growth after warm-up < 10% (at matched points of V8's cycle: rss-growth.mjs), descriptors stable,
// event-loop delay p99 < 20 ms in every window, no 5xx, no error in the server's log, and every
// acknowledged write present at the end.
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { checkRun, printReport, settleWarmup } from "./report.mjs";
import { ADMIN_KEY, sampleProcess, scrapeMetrics, startServer } from "./server.mjs";
import { createTraffic, followEvents } from "./traffic.mjs";
import { verifyBook } from "./verify.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const USAGE = "usage: npm run soak [-- --minutes 10] [-- --rate 200] [-- --out run.json] [-- --node-flags='--trace-gc']";
const SAMPLE_MS = 5_000;
const SCRAPE_MS = 10_000;

let flags;
try {
  ({ values: flags } = parseArgs({ options: { minutes: { type: "string", default: "10" }, rate: { type: "string", default: "200" }, "node-flags": { type: "string", default: "" }, out: { type: "string" } } }));
} catch (error) {
  process.stderr.write(`soak: ${error.message}\n${USAGE}\n`);
  process.exit(2);
}
const minutes = Number(flags.minutes);
const rate = Number(flags.rate);
if (!(minutes > 0) || !(rate > 0 && rate <= 5_000)) {
  process.stderr.write(`soak: --minutes must be > 0 and --rate between 1 and 5000\n${USAGE}\n`);
  process.exit(2);
}
const durationMs = minutes * 60_000;
// The server's data reaches its steady size once its event backlog is full (10,000 events kept),
// at least a fifth of the run; the warm-up then lasts until V8's young generation has settled too
// (rss-growth.mjs), at most half of the run.
const EVENT_BACKLOG = 10_000;
let readyMs = Infinity;

const build = spawnSync(process.execPath, [join(ROOT, "scripts/build.mjs")], { stdio: "inherit", cwd: ROOT });
if (build.status !== 0) process.exit(1);

const dir = await mkdtemp(join(tmpdir(), "petstore-soak-"));
const server = await startServer({ bin: join(ROOT, "bin/petstore.js"), db: join(dir, "petstore.json"), nodeArgs: flags["node-flags"].split(" ").filter(Boolean) });
process.once("SIGINT", () => void server.stop().then(() => process.exit(130)));
const admin = createTraffic({ baseUrl: server.baseUrl, key: ADMIN_KEY });
const mainKey = await createKey(admin, { plan: "enterprise", name: "soak", perMinute: 1_000_000, perDay: 1_000_000_000 });
const tinyKey = await createKey(admin, { plan: "enterprise", name: "soak-tiny", perMinute: 10, perDay: 1_000_000 });
await admin.close();

process.stderr.write(`soak: ${minutes} min at ${rate} req/s against ${server.baseUrl} (pid ${server.pid})\n`);
const events = await followEvents({ baseUrl: server.baseUrl, key: mainKey });
const traffic = createTraffic({ baseUrl: server.baseUrl, key: mainKey, tinyKey });
const started = performance.now();
const stopTraffic = traffic.run(rate);
const samples = [];
const loopWindows = [];
let nextScrape = SCRAPE_MS;
while (performance.now() - started < durationMs) {
  await sleep(Math.min(SAMPLE_MS, durationMs - (performance.now() - started)));
  const at = performance.now() - started;
  if (events.seen.events >= EVENT_BACKLOG && readyMs === Infinity) readyMs = Math.max(at, durationMs * 0.2);
  samples.push({ at, ...(await sampleProcess(server.pid)) });
  if (at >= nextScrape) {
    nextScrape += SCRAPE_MS;
    loopWindows.push({ at, ...(await scrapeMetrics(server.metricsUrl)) });
    // The young generation's size at the moment of this RSS sample (read right after it).
    samples.at(-1).newSpaceKb = loopWindows.at(-1).newSpace / 1024;
  }
  const last = samples.at(-1);
  const heap = loopWindows.at(-1);
  const heapText = heap?.heapTotal === undefined ? "" : `, heap ${Math.round(heap.heapUsed / 2 ** 20)}/${Math.round(heap.heapTotal / 2 ** 20)} MiB (new ${Math.round(heap.newSpace / 2 ** 20)}, old ${Math.round(heap.oldSpace / 2 ** 20)}), external ${Math.round(heap.external / 2 ** 20)} MiB`;
  process.stderr.write(`soak: ${Math.round(at / 1000)} s, ${traffic.stats.sent} requests, RSS ${Math.round(last.rssKb / 1024)} MiB${heapText}, ${last.fds} fds, ${events.seen.events} events\n`);
}
await stopTraffic();
const elapsedMs = performance.now() - started;
await sleep(1_000);
const checker = createTraffic({ baseUrl: server.baseUrl, key: mainKey });
const verification = await verifyBook(traffic.book, checker);
await checker.close();
await events.close();
await traffic.close();
const exitCode = await server.stop();

const result = {
  date: new Date().toISOString(),
  machine: `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, load average ${loadavg().map((n) => n.toFixed(2)).join(" ")}, Node ${process.version}`,
  minutes,
  rate,
  elapsedMs,
  readyMs,
  samples,
  loopWindows,
  stats: traffic.stats,
  book: traffic.book,
  events: events.seen,
  verification,
  log: server.log,
  exitCode,
};
const settled = settleWarmup(result);
const checks = checkRun(settled);
printReport(settled, checks);
if (flags.out) await writeFile(flags.out, `${JSON.stringify({ ...settled, stats: { ...settled.stats, latenciesMs: undefined, byStatus: Object.fromEntries(settled.stats.byStatus) }, book: undefined }, null, 1)}\n`);
await rm(dir, { recursive: true, force: true });
process.exit(checks.every((check) => check.ok) ? 0 : 1);

async function createKey(client, body) {
  const answer = await client.call("createKey", "POST", "/keys", { body, expect: [201] });
  if (answer.status !== 201) throw new Error(`POST /v1/keys answered ${answer.status}`);
  return answer.json.key;
}
