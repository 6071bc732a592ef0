// GET /v1/events over both engines, each case on a server of its own: reset for an id the
// backlog no longer holds, and graceful stop. The slow consumer: test/server/event-stream.test.ts.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { json } from "../helpers/assertions.js";
import { openSse } from "../helpers/sse-client.js";
import { testBackend } from "../helpers/test-backend.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

const addPet = async (server: TestServer, name = "Rex") => json(await server.api("/pets", { json: { name, categoryId: 3 } }));
const open = (server: TestServer, headers: Record<string, string> = {}) => openSse(`${server.baseUrl}/events`, server.adminKey, headers);

async function lastEventId(server: TestServer): Promise<number> {
  const stream = await open(server);
  await addPet(server, "marker");
  const [event] = await stream.events(1);
  stream.close();
  return event!.id;
}

describe("GET /v1/events: reset", () => {
  if (testBackend() === "lowdb") {
    it("continues the ids after a restart, and answers an id of the previous run with reset, then live", async () => {
      const first = await startTestServer();
      const before = await lastEventId(first);
      await first.close();
      const second = await startTestServer({ db: first.dbPath });
      try {
        const stream = await open(second, { "last-event-id": String(before - 1) });
        const reset = await stream.next();
        expect(reset.event).toBe("reset");
        expect(reset.id).toBeUndefined();
        await addPet(second, "after");
        const [event] = await stream.events(1);
        expect(event!.id).toBe(before + 1);
        stream.close();
        // The newest id of the previous run misses nothing: no reset, just live.
        const current = await open(second, { "last-event-id": String(before + 1) });
        await addPet(second, "later");
        expect((await current.next()).event).toBe("pet.created");
        current.close();
      } finally {
        await second.close();
      }
    });
  }

  if (testBackend() === "postgres") {
    it("answers an id older than the trimmed backlog with reset, then live", async () => {
      const server = await startTestServer();
      try {
        const before = await lastEventId(server);
        await addPet(server, "kept");
        // The instance has announced "kept" (NOTIFY is asynchronous): a stream opened later sees it as past, not live.
        const seen = await open(server, { "last-event-id": String(before) });
        expect((await seen.next()).event).toBe("pet.created");
        seen.close();
        // What the periodic trim does once events are past both backlog rules.
        const client = new pg.Client({ connectionString: server.dbPath });
        await client.connect();
        await client.query("DELETE FROM events WHERE id <= $1", [before]);
        await client.query("UPDATE events_floor SET first_kept = $1", [before + 1]);
        await client.end();
        const stream = await open(server, { "last-event-id": String(before - 1) });
        expect((await stream.next()).event).toBe("reset");
        const pet = await addPet(server, "live");
        const [event] = await stream.events(1);
        expect(event!.data.id).toBe(pet.id);
        stream.close();
        const fine = await open(server, { "last-event-id": String(before) });
        expect((await fine.next()).event).toBe("pet.created");
        fine.close();
      } finally {
        await server.close();
      }
    });
  }
});

describe("GET /v1/events: an id newer than any event", () => {
  it("gets reset, then every live event (not silence until the ids pass it)", async () => {
    // What a client holds after the server's db was restored from an older backup, or when it
    // is pointed at another server: an id this store has not reached.
    const server = await startTestServer();
    try {
      const newest = await lastEventId(server);
      for (const [n, lastId] of [newest + 1, newest + 1_000_000].entries()) {
        const stream = await open(server, { "last-event-id": String(lastId) });
        const reset = await stream.next();
        expect(reset.event).toBe("reset");
        expect(reset.id).toBeUndefined();
        const pet = await addPet(server, `after ${lastId}`);
        const [event] = await stream.events(1);
        expect(event!.data.id).toBe(pet.id);
        // The store's own next id, even the one the client already claimed to have.
        expect(event!.id).toBe(newest + 1 + n);
        stream.close();
      }
    } finally {
      await server.close();
    }
  });
});

describe("GET /v1/events: stopping", () => {
  it("ends every stream cleanly on a graceful stop", async () => {
    const server = await startTestServer();
    const streams = await Promise.all([open(server), open(server)]);
    const started = Date.now();
    await server.close();
    expect(await Promise.all(streams.map((stream) => stream.ended))).toEqual([true, true]);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
