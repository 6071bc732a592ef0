// serve --ephemeral --seed in process: the seed as the API shows it, and POST /v1/admin/reset
// restoring it exactly (data, next ids, counters, bans, idempotency records, event streams).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, json } from "../helpers/assertions.js";
import { openSse } from "../helpers/sse-client.js";
import { startTestServer } from "../helpers/test-server.js";
import { SEED_ADMIN, SEED_FREE, startThrowaway, type Throwaway } from "./helpers.js";

let server: Throwaway;
beforeAll(async () => {
  server = await startThrowaway();
});
afterAll(() => server.close());

const SEED_PETS = [
  { id: 3, name: "Kit", categoryId: 2, status: "pending" },
  { id: 5, name: "Rex", categoryId: 1, status: "available" },
  { id: 6, name: "Tom", categoryId: 2, status: "sold" },
];
const reset = (key = SEED_ADMIN) => server.api("/admin/reset", { method: "POST", key });

describe("serve --ephemeral --seed", () => {
  it("serves the seed's pets with their ids, a pet without one numbered after the highest", async () => {
    expect(await json(await server.api("/pets"))).toEqual(SEED_PETS);
  });

  it("serves the seed's orders and keys: the fixed secrets work with their plans", async () => {
    expect(await json(await server.api("/store/orders/10"))).toEqual({ id: 10, petId: 3, status: "approved", createdAt: "2026-01-02T03:04:05.000Z", updatedAt: "2026-01-02T03:04:05.000Z" });
    const free = await json(await server.api("/keys/current", { key: SEED_FREE }));
    expect(free.key).toMatchObject({ plan: "free", name: "free tier", admin: false, prefix: "ps_FreeKe" });
    expect(server.adminKey).toBe(SEED_ADMIN);
  });

  it("gives new pets and orders the ids after the seed's highest", async () => {
    await reset();
    expect(await json(await server.api("/pets", { json: { name: "New", categoryId: 1 } }))).toMatchObject({ id: 7 });
    expect(await json(await server.api("/store/orders", { json: { petId: 5 } }))).toMatchObject({ id: 11 });
  });
});

describe("POST /v1/admin/reset", () => {
  it("answers 204 and restores the seed exactly: created, changed and deleted records, and the next ids", async () => {
    await server.api("/pets", { json: { name: "Extra", categoryId: 9 } });
    await server.api("/pets/5", { method: "PATCH", json: { name: "Renamed" }, headers: { "content-type": "application/merge-patch+json" } });
    expect((await server.api("/pets/6", { method: "DELETE" })).status).toBe(204);
    const response = await reset();
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect(await json(await server.api("/pets"))).toEqual(SEED_PETS);
    expect(await json(await server.api("/store/orders"))).toHaveLength(1);
    expect(await json(await server.api("/pets", { json: { name: "Again", categoryId: 1 } }))).toMatchObject({ id: 7 });
  });

  it("restores search by name and the name order, whatever the worlds before it renamed, created or deleted", async () => {
    const names = async (query: string) => (await json(await server.api(`/pets?${query}`))).map((pet: { name: string }) => pet.name);
    const patch = (id: number, name: string) => server.api(`/pets/${id}`, { method: "PATCH", json: { name }, headers: { "content-type": "application/merge-patch+json" } });
    await reset();
    for (let round = 0; round < 3; round++) {
      await patch(5, "Kitten");
      await patch(3, `Cat ${round}`);
      await server.api("/pets", { json: { name: "Kat", categoryId: 2 } });
      expect((await server.api("/pets/6", { method: "DELETE" })).status).toBe(204);
      expect(await names("q=kit")).toEqual(["Kitten"]);
      expect(await names("sort=name")).toEqual([`Cat ${round}`, "Kat", "Kitten"]);
      expect((await reset()).status).toBe(204);
      expect(await names("q=kit")).toEqual(["Kit"]);
      expect(await names("q=t")).toEqual(["Kit", "Tom"]);
      expect(await names("q=rex")).toEqual(["Rex"]);
      expect(await names("sort=-name")).toEqual(["Tom", "Rex", "Kit"]);
    }
  });

  it("removes keys created since, and keeps the seed's", async () => {
    const created = await json(await server.api("/keys", { json: { plan: "pro" } }));
    expect((await server.api("/keys/current", { key: created.key })).status).toBe(200);
    await reset();
    await expectError(await server.api("/keys/current", { key: created.key }), 401, "unauthorized");
    expect((await json(await server.api("/keys"))).map((key: { prefix: string }) => key.prefix).sort()).toEqual(["ps_Admin0", "ps_FreeKe"]);
  });

  it("clears rate-limit counters and bans", async () => {
    await reset();
    let last: Response | undefined;
    for (let n = 0; n < 62; n++) last = await server.api("/pets?limit=1", { key: SEED_FREE });
    expect(last?.status).toBe(429);
    await reset();
    const after = await server.api("/pets?limit=1", { key: SEED_FREE });
    expect(after.status).toBe(200);
    expect(after.headers.get("x-ratelimit-remaining")).toBe("59");
  });

  it("forgets idempotency records: the same Idempotency-Key creates again", async () => {
    await reset();
    const send = (name: string) => server.api("/pets", { json: { name, categoryId: 1 }, headers: { "idempotency-key": "same-key-1" } });
    expect((await send("First")).status).toBe(201);
    await expectError(await send("Other"), 422, "idempotency_key_reused");
    await reset();
    const again = await send("Other");
    expect(again.status).toBe(201);
    expect(await json(again)).toMatchObject({ id: 7, name: "Other" });
  });

  it("ends open event streams with a reset event, and empties the backlog", async () => {
    await reset();
    await server.api("/pets", { json: { name: "Evented", categoryId: 1 } });
    const stream = await openSse(`${server.baseUrl}/events`, SEED_ADMIN, { "last-event-id": "0" });
    expect((await stream.events(1))[0]).toMatchObject({ type: "pet.created" });
    await reset();
    const frame = await stream.next();
    expect(frame.event).toBe("reset");
    expect(JSON.parse(frame.data ?? "{}")).toMatchObject({ type: "reset", lastEventId: 0 });
    expect(await stream.ended).toBe(true);
    const fresh = await openSse(`${server.baseUrl}/events`, SEED_ADMIN, { "last-event-id": "0" });
    await server.api("/pets", { json: { name: "After", categoryId: 1 } });
    expect((await fresh.events(1))[0]).toMatchObject({ type: "pet.created", id: 1, data: { id: 7, name: "After" } });
    fresh.close();
  });

  it("needs the admin key (403 for another, 401 without)", async () => {
    await expectError(await reset(SEED_FREE), 403, "forbidden");
    await expectError(await server.api("/admin/reset", { method: "POST", key: null }), 401, "unauthorized");
  });

  it("is 404 on a server over a db: its data is never thrown away by a request", async () => {
    const file = await startTestServer();
    try {
      await expectError(await file.api("/admin/reset", { method: "POST" }), 404, "not_found");
    } finally {
      await file.close();
    }
  });
});
