// Issue 21: Redis stopped and started under a steady load of reads. The documented policy holds
// (503 storage_unavailable, the limits are not waived), no other 5xx, recovery without a
// restart, and the counts are exact afterwards. A Redis without persistence (as here) forgets
// every counter when it restarts: "exact" means each key counts from zero again, and the n-th
// request served after the restart reports exactly n fewer left, no gap, no double count.
import { afterEach, expect, it } from "vitest";
import { startRedis } from "../helpers/engines.js";
import { startServeProcess, type ServeProcess } from "../helpers/serve-process.js";
import { send, steadyLoad, type Outcome } from "../helpers/steady-load.js";
import { freshDatabase } from "../helpers/test-backend.js";
import { DEADLINE_MS, expectOkOr503, sleep } from "../helpers/load-outcomes.js";
import { clearOfWindowEnd, DAY } from "../helpers/window-edge.js";

const RATE = 40;
const PER_DAY = 100_000;

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => void (await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()))));

/** The day window's `r` of the RateLimit field: what this key has left today after this request. */
function dayRemaining(outcome: Pick<Outcome, "headers">): number {
  const match = /"day";r=(\d+);t=\d+$/.exec(outcome.headers.get("ratelimit") ?? "");
  if (!match?.[1]) throw new Error(`no day window in RateLimit: ${outcome.headers.get("ratelimit")}`);
  return Number(match[1]);
}

/** PER_DAY-1, PER_DAY-2, ... : what n requests served one after another, from a fresh count, report. */
const countdown = (n: number) => Array.from({ length: n }, (_, i) => PER_DAY - 1 - i);
const descending = (values: number[]) => [...values].sort((a, b) => b - a);

it("answers 503 while Redis is down, waives no limit, recovers by itself, and counts exactly from the restart", { timeout: 30_000 }, async () => {
  const redis = await startRedis();
  cleanups.push(() => redis.stop());
  const { db } = await freshDatabase();
  const server: ServeProcess = await startServeProcess({ dbPath: db, args: ["--quiet", "--redis", `${redis.url}/0`] });
  cleanups.push(() => server.stop("SIGKILL"));
  const admin = { baseUrl: server.baseUrl, key: server.adminKey };
  // The counts are read from the day window of a server on the wall clock: all of it in one UTC day.
  await clearOfWindowEnd(10_000, DAY);
  const created = await send(admin, "/keys", DEADLINE_MS, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ plan: "enterprise", perMinute: PER_DAY, perDay: PER_DAY }),
  });
  expect(created.status).toBe(201);
  const target = { baseUrl: server.baseUrl, key: (created.body as { key: string }).key };

  const load = steadyLoad(RATE, () => send(target, "/pets?limit=1", DEADLINE_MS));
  await sleep(1_000);
  await redis.down();
  const downAt = load.elapsed();
  await sleep(1_500);
  const upAt = load.elapsed();
  await redis.up();
  const backAt = load.elapsed();
  await sleep(2_500);
  const outcomes = await load.stop();

  expectOkOr503(outcomes, 200);
  for (const outcome of outcomes.filter((o) => o.status === 503)) expect(outcome.headers.get("x-ratelimit-remaining")).toBeNull();
  const whileDown = outcomes.filter((outcome) => outcome.startedAt > downAt && outcome.startedAt < upAt);
  expect(whileDown.length).toBeGreaterThan(RATE / 4);
  // A request caught by one of the limiter's reconnection attempts waits for it (within the
  // deadline) and is served once Redis is back, counted from the new count like the others.
  expect(whileDown.filter((outcome) => outcome.status !== 503 && outcome.startedAt + outcome.ms < upAt)).toEqual([]);
  expect(whileDown.filter((outcome) => outcome.status === 503).length).toBeGreaterThan(RATE / 4);
  const recovered = outcomes.filter((outcome) => outcome.startedAt > backAt + 1_000);
  expect(recovered.length).toBeGreaterThan(RATE / 4);
  expect(recovered.filter((outcome) => outcome.status !== 200)).toEqual([]);

  // Before the outage and after it, each 200 took exactly one from the count it was served from.
  const served = outcomes.filter((outcome) => outcome.status === 200);
  const before = served.filter((outcome) => outcome.startedAt < downAt).map(dayRemaining);
  const after = served.filter((outcome) => outcome.startedAt > downAt).map(dayRemaining);
  expect(before.length).toBeGreaterThan(RATE / 4);
  expect(descending(before)).toEqual(countdown(before.length));
  expect(descending(after)).toEqual(countdown(after.length));
  const next = await send(target, "/pets?limit=1", DEADLINE_MS);
  expect(next.status).toBe(200);
  expect(dayRemaining(next)).toBe(PER_DAY - 1 - after.length);
  expect(next.headers.get("x-ratelimit-remaining")).toBe(String(PER_DAY - 1 - after.length));

  expect(server.stderr()).toMatch(/unavailable: .*rate-limited requests answer 503/);
  expect(server.stderr()).toMatch(/is reachable again/);
});
