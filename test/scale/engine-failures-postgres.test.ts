// Issue 21, "Engines that fail while the server works": PostgreSQL taken away under a steady load
// of creates (a fast shutdown and a start, then its connections killed server-side). The server
// answers 503 meanwhile, never another 5xx, never hangs, recovers by itself, and every 201 it
// sent is a row in the database. A private cluster: stopping the shared one would break the others.
import pg from "pg";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { startPostgres, type RestartableEngine } from "../helpers/engines.js";
import { startServeProcess, type ServeProcess } from "../helpers/serve-process.js";
import { loadCreate, send, steadyLoad, type LoadTarget, type Outcome } from "../helpers/steady-load.js";
import { DEADLINE_MS, expectOkOr503, petLines, retryRefused, sleep } from "../helpers/load-outcomes.js";

const RATE = 25;
// pg_ctl polls once a second while it starts and stops the cluster, on a machine shared with the
// rest of the suite: these two tests take 10-16 s, too close to the default 20 s.
const SLOW = { timeout: 40_000 };

let cluster: RestartableEngine;
let admin: pg.Client;
const running: ServeProcess[] = [];
beforeAll(async () => {
  cluster = await startPostgres();
  admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
});
afterEach(async () => void (await Promise.all(running.splice(0).map((server) => server.stop("SIGKILL")))));
afterAll(async () => {
  await admin?.end().catch(() => undefined);
  await cluster?.stop();
});

async function serveOn(database: string): Promise<{ server: ServeProcess; target: LoadTarget; url: string }> {
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(cluster.url);
  url.pathname = `/${database}`;
  const server = await startServeProcess({ dbPath: url.href, args: ["--quiet"] });
  running.push(server);
  return { server, target: { baseUrl: server.baseUrl, key: server.adminKey }, url: url.href };
}

async function storedPets(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return petLines((await client.query<{ id: string; name: string }>("SELECT id, name FROM pets")).rows);
  } finally {
    await client.end();
  }
}

it("answers 503 while PostgreSQL is stopped, recovers when it is back, and every 201 is a row", SLOW, async () => {
  const { server, target, url } = await serveOn("stopped_under_load");
  const load = steadyLoad(RATE, (n) => loadCreate(target, n, DEADLINE_MS));
  await sleep(1_000);
  await admin.end();
  await cluster.down();
  const downAt = load.elapsed();
  await sleep(500);
  // A listing no instance kept reads PostgreSQL: refused alike (the creates refused meanwhile have
  // replaced the listing token anyway); the liveness probe still answers.
  const read = await send(target, "/pets", DEADLINE_MS);
  expect({ status: read.status, body: read.body }).toMatchObject({ status: 503, body: { code: "storage_unavailable" } });
  expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
  await sleep(1_500);
  const upAt = load.elapsed();
  await cluster.up();
  const backAt = load.elapsed();
  await sleep(2_500);
  const outcomes = await load.stop();
  admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();

  expectOkOr503(outcomes, 201);
  const refused = outcomes.filter((outcome) => outcome.status === 503);
  // Every create sent while it was down was refused; all those sent a second after it was back succeeded.
  const whileDown = outcomes.filter((outcome) => outcome.startedAt > downAt && outcome.startedAt < upAt);
  expect(whileDown.filter((outcome) => outcome.status !== 503).map(({ n, startedAt, status, body }) => ({ n, startedAt, status, body }))).toEqual([]);
  expect(refused.length).toBeGreaterThanOrEqual(whileDown.length);
  expect(whileDown.length).toBeGreaterThan(RATE / 4);
  const recovered = outcomes.filter((outcome) => outcome.startedAt > backAt + 1_000);
  expect(recovered.length).toBeGreaterThan(RATE / 4);
  expect(recovered.every((outcome) => outcome.status === 201)).toBe(true);

  const acknowledged = await retryRefused(target, outcomes);
  expect(await storedPets(url)).toEqual(petLines(acknowledged.values()));
  expect(server.stderr()).toMatch(/storage unavailable, answering 503/);
  expect(server.stderr()).toMatch(/storage available again/);
  expect(server.stderr()).not.toMatch(/\berror\b.*\n\s+at /);
});

it("loses only the requests in flight when its connections are killed server-side, and reconnects", SLOW, async () => {
  const { server, target, url } = await serveOn("killed_under_load");
  const load = steadyLoad(RATE, (n) => loadCreate(target, n, DEADLINE_MS));
  const kills: Array<{ from: number; to: number }> = [];
  for (let round = 0; round < 2; round++) {
    await sleep(2_000);
    const from = load.elapsed();
    const { rowCount } = await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name LIKE 'petstore%'",
      ["killed_under_load"],
    );
    kills.push({ from, to: load.elapsed() });
    expect(rowCount).toBeGreaterThan(0);
  }
  await sleep(2_000);
  const outcomes = await load.stop();

  expectOkOr503(outcomes, 201);
  // Only requests in flight at a kill (holding or waiting for a connection) or sent within the
  // second after it (an idle connection whose death was not yet noticed) may fail.
  const nearKill = (outcome: Outcome) => kills.some((kill) => outcome.startedAt <= kill.to + 1_000 && outcome.startedAt + outcome.ms >= kill.from);
  expect(outcomes.filter((outcome) => outcome.status === 503 && !nearKill(outcome))).toEqual([]);
  // ...and there were plenty of others, every one of them a 201.
  expect(outcomes.filter((outcome) => !nearKill(outcome)).length).toBeGreaterThan(RATE);

  const acknowledged = await retryRefused(target, outcomes);
  expect(await storedPets(url)).toEqual(petLines(acknowledged.values()));
  // The event listener's connection was killed too: it comes back by itself.
  await expect
    .poll(async () => (await admin.query("SELECT application_name FROM pg_stat_activity WHERE datname = $1 ORDER BY 1", ["killed_under_load"])).rows)
    .toContainEqual({ application_name: "petstore-events" });
  expect(server.stderr()).toMatch(/event listener lost its PostgreSQL connection/);
});
