// Two servers over one PostgreSQL database: a change made through one reaches a stream opened
// on the other (LISTEN/NOTIFY), quickly and once.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeAll, expect, it } from "vitest";
import { json } from "../helpers/assertions.js";
import { openSse } from "../helpers/sse-client.js";
import { freshDatabase } from "../helpers/test-backend.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

let a: TestServer;
let b: TestServer;
beforeAll(async () => {
  const { db, redis } = await freshDatabase();
  a = await startTestServer({ db, redis });
  b = await startTestServer({ db, redis });
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

// "Under no load" cannot be promised while other test files share the machine's two cores, and
// PostgreSQL's own process can be starved where this process's loop-delay check does not see it
// (1-2 outliers of 145-210 ms in 12 runs at load 10-22). A retry measures all ten again from a
// fresh stream; a real slowdown fails every attempt.
it("a subscriber on B sees each pet created through A within 100 ms, in order, once", { retry: 2 }, async () => {
  const stream = await openSse(`${b.baseUrl}/events`, b.adminKey);
  for (let i = 0; i < 100 && stream.retry() === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  const create = (name: string) =>
    fetch(`${a.baseUrl}/pets`, { method: "POST", headers: { authorization: `Bearer ${a.adminKey}`, "content-type": "application/json" }, body: JSON.stringify({ name, categoryId: 1 }) });
  // One change first, not measured: the first of a fresh pair of servers pays for things done
  // once (A's first insert and NOTIFY, B's first fetch of a notified change, code not yet
  // optimised), which is start-up, not the delivery the issue times.
  await create("warm-up");
  const [warmUp] = await stream.events(1);
  const latencies: number[] = [];
  const underLoad: number[] = [];
  const ids = [warmUp!.id];
  // Both servers run in this process: a stall of its event loop (another test file, GC, a busy
  // machine) delays the delivery and shows in the loop's delay. A sample during which the loop
  // was held up 50 ms or more was not taken "under no load": it is noted and taken again.
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  for (let attempt = 0; latencies.length < 10 && attempt < 30; attempt++) {
    delay.reset();
    const response = await create(`via-a-${attempt}`);
    // From the 201, as the issue says; the time the event is read here is at or after its arrival.
    const created = performance.now();
    const pet = await json(response);
    const [event] = await stream.events(1);
    const ms = performance.now() - created;
    expect(event).toMatchObject({ type: "pet.created", data: pet });
    ids.push(event!.id);
    if (delay.max / 1e6 >= 50) underLoad.push(ms);
    else latencies.push(ms);
  }
  delay.disable();
  const seen = `latencies ${latencies.map((ms) => ms.toFixed(1)).join(", ")} ms; under load (not counted) ${underLoad.map((ms) => ms.toFixed(1)).join(", ")} ms`;
  expect(latencies.length, seen).toBe(10);
  // "Within 100 ms under no load": every one of them, not a median.
  expect(latencies.filter((ms) => ms >= 100), seen).toEqual([]);
  expect(ids).toEqual([...ids].sort((x, y) => x - y));
  // And the other way round, with a resume on A over what B made.
  const fromB = await json(await b.api("/pets", { json: { name: "via-b", categoryId: 1 } }));
  const resumed = await openSse(`${a.baseUrl}/events`, a.adminKey, { "last-event-id": String(ids[0]) });
  const replayed = await resumed.events(ids.length);
  expect(replayed.map((event) => event.data.id).at(-1)).toBe(fromB.id);
  resumed.close();
  stream.close();
});
