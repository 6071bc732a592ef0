// GET /v1/events over both engines (the "lowdb" and "postgres" vitest projects run this file):
// what each change sends, resume, reset, the per-key limit, revocation, graceful stop and the
// slow consumer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, json } from "../helpers/assertions.js";
import { openSse, type SseStream } from "../helpers/sse-client.js";
import { createKey, startTestServer, type TestServer } from "../helpers/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ eventStreams: { revocationCheckMs: 200, keepAliveMs: 300 } });
});
afterAll(() => server.close());

const open = (query = "", key: string | null = server.adminKey, headers: Record<string, string> = {}) =>
  openSse(`${server.baseUrl}/events${query}`, key, headers);
const addPet = async (name = "Rex") => json(await server.api("/pets", { json: { name, categoryId: 3 } }));

/** Opens a live stream and waits until it is subscribed (its retry line has arrived). */
async function live(query = "", key?: string): Promise<SseStream> {
  const stream = await open(query, key);
  for (let i = 0; i < 100 && stream.retry() === undefined; i++) await new Promise((r) => setTimeout(r, 10));
  return stream;
}

describe("GET /v1/events", () => {
  it("answers text/event-stream with a retry line and keep-alive comments", async () => {
    const stream = await live();
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(stream.response.headers.get("ratelimit-limit") ?? stream.response.headers.get("x-ratelimit-limit")).not.toBeNull();
    expect(stream.retry()).toBe("2000");
    await new Promise((r) => setTimeout(r, 700));
    expect(stream.comments()).toContain("keep-alive");
    stream.close();
  });

  it("sends every kind of change, after it is durable, in order, with the record after the change", async () => {
    const stream = await live();
    const pet = await addPet("Ev");
    await server.api(`/pets/${pet.id}`, { method: "PATCH", json: { name: "Eve" }, headers: { "content-type": "application/merge-patch+json" } });
    const order = await json(await server.api("/store/orders", { json: { petId: pet.id } }));
    await server.api(`/store/orders/${order.id}`, { method: "PATCH", json: { status: "cancelled" }, headers: { "content-type": "application/merge-patch+json" } });
    const other = await addPet("Gone");
    await server.api(`/pets/${other.id}`, { method: "DELETE" });
    const events = await stream.events(8);
    const summary = events.map((event) => [event.type, event.data.id]);
    expect(summary).toEqual([
      ["pet.created", pet.id],
      ["pet.updated", pet.id],
      ...sortedPair(summary.slice(2, 4), [["pet.updated", pet.id], ["order.created", order.id]]),
      ...sortedPair(summary.slice(4, 6), [["pet.updated", pet.id], ["order.updated", order.id]]),
      ["pet.created", other.id],
      ["pet.deleted", other.id],
    ]);
    expect(events[0]!.data).toEqual(pet);
    expect(events[1]!.data).toEqual({ ...pet, name: "Eve" });
    expect(events.find((event) => event.type === "order.created")!.data).toEqual(order);
    expect(events.find((event) => event.type === "order.updated")!.data).toMatchObject({ id: order.id, status: "cancelled" });
    expect(events[7]!.data).toEqual({ id: other.id });
    const ids = events.map((event) => event.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    for (const event of events) expect(Date.parse(event.at)).not.toBeNaN();
    stream.close();
  });

  it("filters by ?types= and refuses an unknown type with 400 invalid_parameter", async () => {
    await expectError(await fetch(`${server.baseUrl}/events?types=pet.created,pet.sold`, { headers: { authorization: `Bearer ${server.adminKey}` } }), 400, "invalid_parameter");
    const stream = await live("?types=pet.deleted");
    const pet = await addPet();
    await server.api(`/pets/${pet.id}`, { method: "DELETE" });
    const [event] = await stream.events(1);
    expect(event).toMatchObject({ type: "pet.deleted", data: { id: pet.id } });
    stream.close();
  });

  it("resumes after Last-Event-ID (or ?lastEventId=) without a gap or a duplicate", async () => {
    const first = await live();
    await addPet("a");
    const [seen] = await first.events(1);
    first.close();
    const missed = [await addPet("b"), await addPet("c")];
    const resumes = [() => open("", server.adminKey, { "last-event-id": String(seen!.id) }), () => open(`?lastEventId=${seen!.id}`)];
    const laterIds: number[] = [];
    for (const openResume of resumes) {
      const resume = await openResume();
      const replayed = await resume.events(2);
      expect(replayed.map((event) => [event.id, event.data.id])).toEqual([
        [seen!.id + 1, missed[0].id],
        [seen!.id + 2, missed[1].id],
      ]);
      // Then live: the pets of earlier rounds, then this round's.
      const later = await addPet("d");
      laterIds.push(later.id);
      const next = await resume.events(laterIds.length);
      expect(next.map((event) => event.data.id)).toEqual(laterIds);
      resume.close();
    }
  });

  it("refuses a sixth stream of one key with 429 too_many_streams and the rate-limit headers", async () => {
    const { key } = await createKey(server, { plan: "pro", name: "streams" });
    const streams = await Promise.all([1, 2, 3, 4, 5].map(() => live("", key)));
    const sixth = await fetch(`${server.baseUrl}/events`, { headers: { authorization: `Bearer ${key}` } });
    await expectError(sixth, 429, "too_many_streams");
    expect(sixth.headers.get("ratelimit-limit") ?? sixth.headers.get("x-ratelimit-limit")).not.toBeNull();
    streams[0]!.close();
    await new Promise((r) => setTimeout(r, 200));
    const again = await live("", key);
    expect(again.response.status).toBe(200);
    for (const stream of [...streams, again]) stream.close();
  });

  it("ends the stream of a key revoked while it is open within a second", async () => {
    const { id, key } = await createKey(server, { plan: "pro", name: "revoked" });
    const stream = await live("", key);
    expect(stream.response.status).toBe(200);
    const revokedAt = Date.now();
    expect((await server.api(`/keys/${id}`, { method: "DELETE" })).status).toBeLessThan(300);
    await stream.ended;
    expect(Date.now() - revokedAt).toBeLessThan(1_000);
  });
});

/** Two changes of one commit may come in either order; the test only fixes which two. */
function sortedPair(actual: unknown[][], expected: unknown[][]): unknown[][] {
  return JSON.stringify(actual[0]) === JSON.stringify(expected[0]) ? expected : [expected[1]!, expected[0]!];
}
