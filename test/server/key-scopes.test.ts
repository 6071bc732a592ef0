// Keys that can do only what they need: POST /v1/keys with scopes, what the key then holds, and
// every operation refused without its scope (403 insufficient_scope, RFC 6750 3.1) and served with it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCOPES, type Scope } from "../../src/contract/scopes.js";
import { expectError, expectRateLimitHeaders, json } from "../helpers/assertions.js";
import { openSse, type SseStream } from "../helpers/sse-client.js";
import { createKey, startTestServer, type TestServer } from "../helpers/test-server.js";
import { clearOfWindowEnd } from "../helpers/window-edge.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const MERGE_PATCH = { "content-type": "application/merge-patch+json" };
const keyWith = async (scopes: Scope[], plan = "business") => (await createKey(server, { plan, scopes })).key;
const addPet = async (name = "Rex") => (await json(await server.api("/pets", { json: { name, categoryId: 2 } }))) as { id: number };

const listed = async (id: string) => ((await json(await server.api("/keys"))) as { id: string; scopes: string[] }[]).find((key) => key.id === id);

describe("POST /v1/keys with scopes", () => {
  it("gives a key created without scopes all five, as every key had before scopes", async () => {
    const created = await json(await server.api("/keys", { json: { plan: "free" } }));
    expect(created.scopes).toEqual(SCOPES);
    expect((await listed(created.id))?.scopes).toEqual(SCOPES);
  });

  it("keeps exactly the scopes asked, each once, in their canonical order; listKeys and keys/current state them", async () => {
    const response = await server.api("/keys", { json: { plan: "pro", scopes: ["events:read", "pets:read"] } });
    expect(response.status).toBe(201);
    const created = await json(response);
    expect(created.scopes).toEqual(["pets:read", "events:read"]);
    expect((await listed(created.id))?.scopes).toEqual(["pets:read", "events:read"]);
    const current = await json(await server.api("/keys/current", { key: created.key }));
    expect(current.key.scopes).toEqual(["pets:read", "events:read"]);
  });

  it("keeps a key's scopes through a rotation; the answer states them", async () => {
    const { id } = await createKey(server, { plan: "free", scopes: ["orders:read"] });
    const rotated = await json(await server.api(`/keys/${id}/rotate`, { json: { graceSeconds: 0 } }));
    expect(rotated.scopes).toEqual(["orders:read"]);
    expect((await listed(id))?.scopes).toEqual(["orders:read"]);
    expect((await json(await server.api("/keys/current", { key: rotated.key }))).key.scopes).toEqual(["orders:read"]);
  });

  it("states every scope for the admin key", async () => {
    expect((await json(await server.api("/keys/current"))).key).toMatchObject({ admin: true, scopes: SCOPES });
  });

  it.each([
    [{ plan: "free", scopes: [] }, /scopes: must name at least one scope/],
    [{ plan: "free", scopes: ["pets:read", "keys:write"] }, /scopes\.1: must be one of pets:read, pets:write, orders:read, orders:write, events:read/],
    [{ plan: "free", scopes: ["pets:read", "pets:read"] }, /scopes: must not name a scope twice/],
    [{ plan: "free", scopes: "pets:read" }, /scopes: must be an array of scopes/],
    [{ plan: "free", scopes: null }, /scopes: must be an array of scopes/],
  ])("refuses %j with 400 invalid_body naming the field, creating nothing", async (body, message) => {
    const before = (await json(await server.api("/keys"))).length;
    expect(await expectError(await server.api("/keys", { json: body }), 400, "invalid_body")).toMatch(message);
    expect((await json(await server.api("/keys"))).length).toBe(before);
  });
});

interface Call {
  method: string;
  path: string;
  json?: unknown;
  headers?: Record<string, string>;
}

/** Every operation a key may call, with the scope it needs and a call that it serves. */
async function operations(): Promise<[string, Scope, Call][]> {
  const pet = await addPet("Scoped");
  const spare = await addPet("Spare");
  const gone = await addPet("Gone");
  const order = await json(await server.api("/store/orders", { json: { petId: spare.id } }));
  const forOrder = await addPet("For an order");
  return [
    ["listPets", "pets:read", { method: "GET", path: "/pets" }],
    ["listPets (HEAD)", "pets:read", { method: "HEAD", path: "/pets" }],
    ["getPet", "pets:read", { method: "GET", path: `/pets/${pet.id}` }],
    ["getInventory", "pets:read", { method: "GET", path: "/store/inventory" }],
    ["createPet", "pets:write", { method: "POST", path: "/pets", json: { name: "New", categoryId: 1 } }],
    ["updatePet", "pets:write", { method: "PATCH", path: `/pets/${pet.id}`, json: { name: "Renamed" }, headers: MERGE_PATCH }],
    ["deletePet", "pets:write", { method: "DELETE", path: `/pets/${gone.id}` }],
    ["listOrders", "orders:read", { method: "GET", path: "/store/orders" }],
    ["getOrder", "orders:read", { method: "GET", path: `/store/orders/${order.id}` }],
    ["placeOrder", "orders:write", { method: "POST", path: "/store/orders", json: { petId: forOrder.id } }],
    ["updateOrder", "orders:write", { method: "PATCH", path: `/store/orders/${order.id}`, json: { status: "approved" }, headers: MERGE_PATCH }],
    ["createEventTicket", "events:read", { method: "POST", path: "/events/tickets" }],
  ];
}

describe("an operation outside the key's scopes", () => {
  it("answers 403 insufficient_scope naming the scope in WWW-Authenticate, with the rate-limit headers; the key with that scope alone is served", async () => {
    for (const [operation, scope, call] of await operations()) {
      const others = SCOPES.filter((each) => each !== scope);
      const refused = await server.api(call.path, { method: call.method, json: call.json, headers: call.headers, key: await keyWith(others) });
      expect({ operation, status: refused.status }).toEqual({ operation, status: 403 });
      expect(refused.headers.get("www-authenticate")).toBe(`Bearer error="insufficient_scope", scope="${scope}"`);
      expectRateLimitHeaders(refused);
      if (call.method !== "HEAD") {
        expect(await expectError(refused, 403, "insufficient_scope")).toBe(
          `this API key lacks the scope ${scope} (it holds ${others.join(", ")}); an admin can create a key that has it`,
        );
      }
      const served = await server.api(call.path, { method: call.method, json: call.json, headers: call.headers, key: await keyWith([scope]) });
      expect({ operation, status: served.status }).toEqual({ operation, status: call.method === "POST" && call.path !== "/events/tickets" ? 201 : call.method === "DELETE" ? 204 : 200 });
    }
  }, 60_000);

  it("changes nothing: a pet neither created, renamed nor deleted; an order neither placed nor moved", async () => {
    const reader = await keyWith(["pets:read", "orders:read"]);
    const pet = await addPet("Kept");
    const order = await json(await server.api("/store/orders", { json: { petId: (await addPet("Ordered")).id } }));
    const pets = (await json(await server.api("/pets?limit=100"))).length;
    const orders = (await json(await server.api("/store/orders?limit=100"))).length;
    const refusals = [
      await server.api("/pets", { key: reader, json: { name: "Never", categoryId: 1 } }),
      await server.api(`/pets/${pet.id}`, { key: reader, method: "PATCH", json: { name: "Never" }, headers: MERGE_PATCH }),
      await server.api(`/pets/${pet.id}`, { key: reader, method: "DELETE" }),
      await server.api("/store/orders", { key: reader, json: { petId: pet.id } }),
      await server.api(`/store/orders/${order.id}`, { key: reader, method: "PATCH", json: { status: "cancelled" }, headers: MERGE_PATCH }),
    ];
    expect(refusals.map((response) => response.status)).toEqual([403, 403, 403, 403, 403]);
    expect(await json(await server.api(`/pets/${pet.id}`))).toEqual({ ...pet, name: "Kept", status: "available", categoryId: 2 });
    expect((await json(await server.api("/pets?limit=100"))).length).toBe(pets);
    expect((await json(await server.api("/store/orders?limit=100"))).length).toBe(orders);
    expect((await json(await server.api(`/store/orders/${order.id}`))).status).toBe("placed");
  });

  it("tells nothing about the resource: a pet that does not exist is the same 403 as one that does", async () => {
    const reader = await keyWith(["pets:read"]);
    const missing = await server.api("/pets/987654321", { key: reader, method: "DELETE" });
    expect(await expectError(missing, 403, "insufficient_scope")).toContain("pets:write");
  });

  it("counts against the key's quota like any answer", async () => {
    const key = await keyWith(["orders:read"], "free");
    const remaining = async (response: Response) => Number(response.headers.get("x-ratelimit-remaining"));
    // The server runs on the wall clock: the three counts compared here must fall in one minute.
    await clearOfWindowEnd(2_000);
    const refused = [await server.api("/pets", { key }), await server.api("/pets", { key })];
    expect(refused.map((response) => response.status)).toEqual([403, 403]);
    expect(await Promise.all(refused.map(remaining))).toEqual([59, 58]);
    const current = await json(await server.api("/keys/current", { key }));
    expect(current.usage.minute.remaining).toBe(57);
  });

  it("lets any key read its own record (getCurrentKey), whatever its scopes", async () => {
    const key = await keyWith(["orders:read"]);
    const current = await json(await server.api("/keys/current", { key }));
    expect(current.key.scopes).toEqual(["orders:read"]);
  });

  it("never lets a non-admin key manage keys, whatever its scopes: 403 forbidden", async () => {
    const key = await keyWith([...SCOPES]);
    await expectError(await server.api("/keys", { key, json: { plan: "free", scopes: ["pets:read"] } }), 403, "forbidden");
    await expectError(await server.api("/keys", { key }), 403, "forbidden");
  });
});

describe("the event stream carries only what the key's scopes may read", () => {
  /** Opens a live stream and waits until it is subscribed (its retry line has arrived). */
  async function live(key: string, query = ""): Promise<SseStream> {
    const stream = await openSse(`${server.baseUrl}/events${query}`, key);
    expect(stream.response.status).toBe(200);
    for (let i = 0; i < 100 && stream.retry() === undefined; i++) await new Promise((r) => setTimeout(r, 10));
    return stream;
  }

  /** A pet created, an order placed for it (pet.updated with it), then a marker pet: every stream sees its own kinds. */
  async function changes(): Promise<{ pet: { id: number }; order: { id: number }; marker: { id: number } }> {
    const pet = await addPet("Watched");
    const order = await json(await server.api("/store/orders", { json: { petId: pet.id } }));
    await server.api(`/store/orders/${order.id}`, { method: "PATCH", json: { status: "cancelled" }, headers: MERGE_PATCH });
    const marker = await addPet("Marker");
    return { pet, order, marker };
  }

  it("pets:read: pet.* only; orders:read: order.* only; both: everything, in order", async () => {
    const pets = await live(await keyWith(["pets:read", "events:read"]));
    const orders = await live(await keyWith(["orders:read", "events:read"]));
    const all = await live(await keyWith(["pets:read", "orders:read", "events:read"]));
    const { pet, order, marker } = await changes();
    const kinds = (events: { type: string; data: Record<string, unknown> }[]) => events.map((event) => [event.type, event.data.id]);
    const petEvents = await pets.events(4);
    expect(kinds(petEvents)).toEqual([["pet.created", pet.id], ["pet.updated", pet.id], ["pet.updated", pet.id], ["pet.created", marker.id]]);
    expect(kinds(await orders.events(2))).toEqual([["order.created", order.id], ["order.updated", order.id]]);
    const everything = await all.events(6);
    expect(everything.map((event) => event.type).sort()).toEqual(["order.created", "order.updated", "pet.created", "pet.created", "pet.updated", "pet.updated"]);
    // Nothing else arrives for the orders-only stream: its next event is the next order's.
    const next = await json(await server.api("/store/orders", { json: { petId: marker.id } }));
    expect(kinds(await orders.events(1))).toEqual([["order.created", next.id]]);
    for (const stream of [pets, orders, all]) stream.close();
  });

  it("replays after Last-Event-ID only what the key may read", async () => {
    const all = await live(server.adminKey);
    const before = await changes();
    const seen = await all.events(6);
    all.close();
    const from = seen[0]!.id - 1;
    const resumed = await live(await keyWith(["orders:read", "events:read"]), `?lastEventId=${from}`);
    expect((await resumed.events(2)).map((event) => [event.type, event.data.id])).toEqual([["order.created", before.order.id], ["order.updated", before.order.id]]);
    resumed.close();
  });

  it("refuses, 403 insufficient_scope naming the scope, a stream asked for types the key may not read", async () => {
    const key = await keyWith(["pets:read", "events:read"]);
    const refused = await fetch(`${server.baseUrl}/events?types=pet.created,order.created`, { headers: { authorization: `Bearer ${key}` } });
    expect(refused.headers.get("www-authenticate")).toBe('Bearer error="insufficient_scope", scope="orders:read"');
    expectRateLimitHeaders(refused);
    expect(await expectError(refused, 403, "insufficient_scope")).toMatch(/lacks the scope orders:read \(for order\.created events\)/);
    const asked = await live(key, "?types=pet.deleted");
    const gone = await addPet("Gone");
    await server.api(`/pets/${gone.id}`, { method: "DELETE" });
    expect((await asked.events(1)).map((event) => event.type)).toEqual(["pet.deleted"]);
    asked.close();
  });

  it("refuses a key with events:read but neither pets:read nor orders:read: its stream could carry nothing", async () => {
    const key = await keyWith(["events:read", "pets:write"]);
    const refused = await fetch(`${server.baseUrl}/events`, { headers: { authorization: `Bearer ${key}` } });
    expect(refused.headers.get("www-authenticate")).toBe('Bearer error="insufficient_scope", scope="pets:read orders:read"');
    expect(await expectError(refused, 403, "insufficient_scope")).toMatch(/lacks the scope pets:read or orders:read/);
    // HEAD answers what GET would, refusal included.
    const head = await fetch(`${server.baseUrl}/events`, { method: "HEAD", headers: { authorization: `Bearer ${key}` } });
    expect(head.status).toBe(403);
    expect(head.headers.get("www-authenticate")).toBe('Bearer error="insufficient_scope", scope="pets:read orders:read"');
  });

  it("refuses a key without events:read, even one that reads every record", async () => {
    const refused = await fetch(`${server.baseUrl}/events`, { headers: { authorization: `Bearer ${await keyWith(["pets:read", "orders:read"])}` } });
    expect(refused.headers.get("www-authenticate")).toBe('Bearer error="insufficient_scope", scope="events:read"');
    await expectError(refused, 403, "insufficient_scope");
  });

  it("filters a stream opened with a ticket (a browser's EventSource) as the key's own", async () => {
    const key = await keyWith(["orders:read", "events:read"]);
    const { ticket } = await json(await server.api("/events/tickets", { method: "POST", key }));
    const stream = await openSse(`${server.baseUrl}/events?ticket=${encodeURIComponent(ticket)}`, null);
    expect(stream.response.status).toBe(200);
    for (let i = 0; i < 100 && stream.retry() === undefined; i++) await new Promise((r) => setTimeout(r, 10));
    const { order } = await changes();
    expect((await stream.events(2)).map((event) => [event.type, event.data.id])).toEqual([["order.created", order.id], ["order.updated", order.id]]);
    stream.close();
  });
});
