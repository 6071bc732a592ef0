// Issue 20's row "scenario 1 over PostgreSQL + Redis vs file mode": a throwaway PostgreSQL and
// Redis started the way the tests start them (test/helpers/engines.ts, bundled here with esbuild),
// seeded with `petstore db migrate` from the file mode's own 1k db, and `petstore serve --db
// postgres://… --redis redis://…` measured in the same alternating rounds as the file mode.
// Alone: node scripts/bench/postgres.mjs [--seconds 5] [--rounds 3]   (after npm run build)
import { execFile, spawnSync } from "node:child_process";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import { build } from "esbuild";
import { load } from "./lib/load.mjs";
import { startPetstore } from "./lib/petstore-server.mjs";
import { killAll, pinned, pinSelf } from "./lib/processes.mjs";
import { formatTable, row } from "./lib/report.mjs";
import { SECRETS, UNLIMITED, writePetstoreDb } from "./lib/seed.mjs";

const run = promisify(execFile);
const LIST = "/v1/pets?limit=20";
export const POSTGRES_GOAL = 0.5;

/**
 * PostgreSQL, Redis and a petstore over them, seeded from `fileDb`; `{ problem }` instead when
 * they cannot start (no PostgreSQL binaries on this machine, say): the row then says why.
 * The engines are pinned to the server's core, so that both modes get the same one core.
 */
export async function startPostgresPetstore({ root, work, config, fileDb, log, nodeArgs }) {
  let engines;
  try {
    engines = await startEngines(root, work);
    await pinToServerCore(engines);
    log(`PostgreSQL at ${engines.postgres.url}, Redis at ${engines.redis.url}; seeding with petstore db migrate`);
    await run(process.execPath, [join(root, "bin/petstore.js"), "db", "migrate", "--from", fileDb, "--to", engines.postgres.url], {
      env: { ...process.env, NO_COLOR: "1", PETSTORE_ADMIN_KEY: "" },
    });
    const server = await startPetstore({ root, db: engines.postgres.url, config, name: "petstore serve (PostgreSQL)", args: ["--redis", `${engines.redis.url}/0`], nodeArgs });
    return {
      pid: server.pid,
      origin: server.origin,
      stop: async () => {
        await server.stop();
        await engines.stop();
      },
    };
  } catch (error) {
    await engines?.stop();
    log(`scenario 1 over PostgreSQL + Redis cannot run: ${error.stack ?? error}`);
    return { problem: `cannot run: ${firstLine(error.message)}` };
  }
}

/**
 * Runs scenario 1 against it until it has answered `requests` (or for `maxSeconds`). The file-mode
 * petstore is warmed by every other target of scenario 1 (tens of thousands of requests); at a
 * few hundred a second a 2-second warm-up left this one half-compiled (perf: V8 baseline code and
 * TurboFan at work), which cost it a third of its rate.
 */
export async function warmPostgres(target, { requests = 20_000, maxSeconds = 20 } = {}) {
  const deadline = Date.now() + maxSeconds * 1000;
  let answered = 0;
  while (answered < requests && Date.now() < deadline) answered += (await load({ ...target, seconds: 2 })).total;
}

/** The autocannon target of scenario 1 against the PostgreSQL petstore. */
export function postgresTarget(server) {
  return { url: server.origin + LIST, headers: { authorization: `Bearer ${SECRETS.load}` }, expect: 200, pid: server.pid };
}

/** The row: the best round over PostgreSQL + Redis against the best round of the file mode. */
export function postgresRows(filePetstore, postgres) {
  const scenario = "  the same over PostgreSQL + Redis, against the file mode";
  if (postgres.problem) return [row({ id: "1", scenario, figure: NaN, unit: "req/s", problem: postgres.problem })];
  return [
    row({ id: "1", scenario, figure: postgres.rps, unit: "req/s", baseline: filePetstore.rps, baselineName: "file mode",
      goal: [">=", POSTGRES_GOAL], problem: postgres.problem ?? filePetstore.problem }),
    row({ id: "1", scenario: "    server CPU per request (petstore only); ratio file / PostgreSQL", figure: postgres.cpuUsPerRequest,
      unit: "µs", baseline: filePetstore.cpuUsPerRequest, baselineName: "file mode", inverse: true }),
  ];
}

async function startEngines(root, work) {
  const bundle = join(work, "engines.mjs");
  await build({ entryPoints: [join(root, "test/helpers/engines.ts")], outfile: bundle, bundle: true, format: "esm", platform: "node", logLevel: "warning" });
  const { startPostgres, startRedis } = await import(bundle);
  const [postgres, redis] = await Promise.allSettled([startPostgres(), startRedis()]);
  const started = [postgres, redis].flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const stop = async () => void (await Promise.all(started.map((engine) => engine.stop())));
  if (postgres.status === "rejected" || redis.status === "rejected") {
    await stop();
    throw (postgres.status === "rejected" ? postgres : redis).reason;
  }
  return { postgres: postgres.value, redis: redis.value, stop };
}

// PostgreSQL forks a backend per connection from its postmaster, which the pool opens later, so
// the postmaster's affinity is enough for those; its helpers (checkpointer, writers) are moved too.
async function pinToServerCore({ postgres, redis }) {
  if (!pinned || process.env.BENCH_ENGINES_UNPINNED) return;
  const ports = [new URL(postgres.url).port, new URL(redis.url).port];
  for (const pid of await listenersOn(ports)) {
    for (const each of [pid, ...(await childrenOf(pid))]) spawnSync("taskset", ["-a", "-cp", "0", String(each)], { stdio: "ignore" });
  }
}

/** Pids of the processes whose command line names one of these ports (postgres -p N, redis-server 127.0.0.1:N). */
async function listenersOn(ports) {
  const found = [];
  for (const pid of await processIds()) {
    const command = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    const words = command.split("\0");
    const isPostgres = words.some((word, i) => word === "-p" && ports.includes(words[i + 1])) && /postgres/.test(words[0] ?? "");
    const isRedis = /^redis-server/.test(words[0] ?? "") && ports.some((port) => words[0].endsWith(`:${port}`));
    if (isPostgres || isRedis) found.push(pid);
  }
  return found;
}

async function childrenOf(parent) {
  const children = [];
  for (const pid of await processIds()) {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
    if (stat.split(") ")[1]?.split(" ")[1] === String(parent)) children.push(pid);
  }
  return children;
}

async function processIds() {
  return (await readdir("/proc")).filter((name) => /^\d+$/.test(name));
}

function firstLine(text) {
  return String(text).split("\n")[0];
}

// Alone: the file mode and PostgreSQL + Redis, 1k pets, in alternating rounds; prints the rows.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { seconds: { type: "string", default: "5" }, rounds: { type: "string", default: "3" } } });
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const log = (line) => console.error(line);
  process.once("exit", killAll);
  pinSelf();
  const work = await mkdtemp(join(tmpdir(), "petstore-bench-pg-"));
  try {
    const fileDb = join(work, "petstore-1k.json");
    const config = join(work, "serve-config.json");
    await writePetstoreDb(fileDb, 1_000);
    await writeFile(config, JSON.stringify({ anonymous: UNLIMITED }));
    const postgres = await startPostgresPetstore({ root, work, config, fileDb, log });
    const file = await startPetstore({ root, db: fileDb, config });
    try {
      const targets = { file: postgresTarget(file), ...(postgres.problem ? {} : { postgres: postgresTarget(postgres) }) };
      for (const target of Object.values(targets)) await load({ ...target, seconds: 2 });
      if (targets.postgres) await warmPostgres(targets.postgres);
      const best = {};
      for (let round = 1; round <= Number(values.rounds); round++) {
        for (const [name, target] of Object.entries(targets)) {
          const result = await load({ ...target, seconds: Number(values.seconds) });
          log(`round ${round} ${name}: ${result.rps.toFixed(0)} req/s, p99 ${result.p99} ms, server CPU ${result.cpuUsPerRequest.toFixed(1)} µs/req${result.problem ? ` (${result.problem})` : ""}`);
          if (!best[name] || result.rps > best[name].rps) best[name] = result;
        }
      }
      console.log(formatTable(postgresRows(best.file, postgres.problem ? postgres : best.postgres)));
    } finally {
      await file.stop();
      await postgres.stop?.();
    }
  } finally {
    killAll();
    await rm(work, { recursive: true, force: true });
  }
}
