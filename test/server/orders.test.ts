// The Store group over both engines (the "lowdb" and "postgres" vitest projects run this file):
// every transition and refusal, the pet it drives, pagination, ETags, and the inventory.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, expectRateLimitHeaders, json } from "../helpers/assertions.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const newPet = async (status = "available") => json(await server.api("/pets", { json: { name: "Rex", categoryId: 7, status } }));
const place = (petId: unknown) => server.api("/store/orders", { json: { petId } });
const move = (id: number, status: string, headers: Record<string, string> = {}) =>
  server.api(`/store/orders/${id}`, { method: "PATCH", json: { status }, headers });
const petStatus = async (id: number) => (await json(await server.api(`/pets/${id}`))).status;
const placed = async () => {
  const pet = await newPet();
  return { pet, order: await json(await place(pet.id)) };
};

describe("POST /v1/store/orders", () => {
  it("places the order (201, Location, ETag, beta mark) and the pet becomes pending", async () => {
    const pet = await newPet();
    const response = await place(pet.id);
    expect(response.status).toBe(201);
    const order = await json(response);
    expect(order).toEqual({ id: order.id, petId: pet.id, status: "placed", createdAt: order.createdAt, updatedAt: order.createdAt });
    expect(response.headers.get("location")).toBe(`/v1/store/orders/${order.id}`);
    expect(response.headers.get("etag")).toBe(`"order-${order.id}-1"`);
    expect(response.headers.get("x-api-stability")).toBe("beta");
    expectRateLimitHeaders(response);
    expect(await petStatus(pet.id)).toBe("pending");
  });

  it("answers 404 for an unknown pet and 409 pet_not_available naming the status of one not available", async () => {
    await expectError(await place(999_999), 404, "not_found");
    const sold = await newPet("sold");
    expect(await expectError(await place(sold.id), 409, "pet_not_available")).toMatch(/is sold/);
    const { pet } = await placed();
    expect(await expectError(await place(pet.id), 409, "pet_not_available")).toMatch(/is pending/);
  });

  it.each([[{}], [{ petId: 0 }], [{ petId: "1" }], [{ petId: 1, status: "approved" }]])("refuses %j with 400 invalid_body", async (body) => {
    await expectError(await server.api("/store/orders", { json: body }), 400, "invalid_body");
  });

  it("of 50 concurrent orders for one pet, exactly one is placed", async () => {
    const pet = await newPet();
    const responses = await Promise.all(Array.from({ length: 50 }, () => place(pet.id)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(49);
    const orders = await json(await server.api(`/store/orders?petId=${pet.id}`));
    expect(orders).toHaveLength(1);
  });

  it("marks a 401 as beta too", async () => {
    const response = await server.api("/store/orders", { key: null, json: { petId: 1 } });
    expect(response.headers.get("x-api-stability")).toBe("beta");
    await expectError(response, 401, "unauthorized");
  });
});

describe("PATCH /v1/store/orders/{orderId}", () => {
  it("approves, then delivers: the pet is sold", async () => {
    const { pet, order } = await placed();
    const approved = await move(order.id, "approved");
    expect(approved.status).toBe(200);
    expect((await json(approved)).status).toBe("approved");
    expect(approved.headers.get("etag")).toBe(`"order-${order.id}-2"`);
    expect(await petStatus(pet.id)).toBe("pending");
    const delivered = await json(await move(order.id, "delivered"));
    expect(delivered).toMatchObject({ id: order.id, status: "delivered", petId: pet.id });
    expect(await petStatus(pet.id)).toBe("sold");
  });

  it.each([["placed"], ["approved"]])("cancels from %s: the pet is available again and can be ordered anew", async (from) => {
    const { pet, order } = await placed();
    if (from === "approved") await move(order.id, "approved");
    expect((await json(await move(order.id, "cancelled"))).status).toBe("cancelled");
    expect(await petStatus(pet.id)).toBe("available");
    expect((await place(pet.id)).status).toBe(201);
  });

  it.each([
    [[], "delivered"],
    [[], "placed"],
    [["approved"], "approved"],
    [["approved"], "placed"],
    [["approved", "delivered"], "cancelled"],
    [["cancelled"], "approved"],
    [["cancelled"], "cancelled"],
  ])("after %j refuses %s with 409 invalid_transition naming both, changing nothing", async (path, to) => {
    const { pet, order } = await placed();
    for (const status of path) await move(order.id, status);
    const before = await json(await server.api(`/store/orders/${order.id}`));
    const message = await expectError(await move(order.id, to), 409, "invalid_transition");
    expect(message).toContain(`from ${before.status} to ${to}`);
    expect(await json(await server.api(`/store/orders/${order.id}`))).toEqual(before);
    expect(await petStatus(pet.id)).toBe({ placed: "pending", approved: "pending", delivered: "sold", cancelled: "available" }[before.status as string]);
  });

  it("honours If-Match: a stale ETag is 412 and changes nothing, the current one passes", async () => {
    const { order } = await placed();
    const stale = `"order-${order.id}-1"`;
    await move(order.id, "approved", { "if-match": stale });
    await expectError(await move(order.id, "cancelled", { "if-match": stale }), 412, "precondition_failed");
    expect((await json(await server.api(`/store/orders/${order.id}`))).status).toBe("approved");
    const ok = await move(order.id, "cancelled", { "if-match": `"order-${order.id}-2"` });
    expect(ok.status).toBe(200);
  });

  it("answers 404 for an unknown order, 400 for a bad id or status", async () => {
    await expectError(await move(999_999, "approved"), 404, "not_found");
    await expectError(await move(0, "approved"), 400, "invalid_parameter");
    const { order } = await placed();
    await expectError(await move(order.id, "sold"), 400, "invalid_body");
  });
});

describe("pets held by an open order", () => {
  const patchPet = (id: number, body: unknown) =>
    server.api(`/pets/${id}`, { method: "PATCH", json: body, headers: { "content-type": "application/merge-patch+json" } });

  it("refuse a status change and a delete with 409 pet_has_open_order naming the order; name and category may change", async () => {
    const { pet, order } = await placed();
    expect(await expectError(await patchPet(pet.id, { status: "sold" }), 409, "pet_has_open_order")).toContain(`order ${order.id}`);
    expect(await expectError(await server.api(`/pets/${pet.id}`, { method: "DELETE" }), 409, "pet_has_open_order")).toContain(`order ${order.id}`);
    const renamed = await patchPet(pet.id, { name: "Rexy", categoryId: 8 });
    expect(await json(renamed)).toEqual({ id: pet.id, name: "Rexy", categoryId: 8, status: "pending" });
  });

  it("are free again once the order is delivered", async () => {
    const { pet, order } = await placed();
    await move(order.id, "approved");
    await move(order.id, "delivered");
    expect((await patchPet(pet.id, { status: "available" })).status).toBe(200);
    expect((await server.api(`/pets/${pet.id}`, { method: "DELETE" })).status).toBe(204);
    // The order keeps its history after the pet is gone.
    expect((await json(await server.api(`/store/orders/${order.id}`))).status).toBe("delivered");
  });
});

describe("GET /v1/store/orders", () => {
  it("pages by id with Link, filters by status and petId, and refuses what it does not know", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await placed()).order.id);
    await move(ids[1]!, "cancelled");
    let url: string | undefined = "/store/orders?limit=2&status=placed";
    const seen: number[] = [];
    while (url) {
      const response = await server.api(url);
      expect(response.headers.get("x-api-stability")).toBe("beta");
      const page = await json(response);
      expect(page.length).toBeLessThanOrEqual(2);
      for (const order of page) expect(order.status).toBe("placed");
      seen.push(...page.map((order: { id: number }) => order.id));
      url = /<([^>]+)>; rel="next"/.exec(response.headers.get("link") ?? "")?.[1];
    }
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen).toEqual(expect.arrayContaining([ids[0], ids[2], ids[3], ids[4]]));
    expect(seen).not.toContain(ids[1]);
    const order = await json(await server.api(`/store/orders/${ids[3]}`));
    expect(await json(await server.api(`/store/orders?petId=${order.petId}`))).toEqual([order]);
    // Both filters: one pet's orders in one status, after a transition moved one of them.
    const cancelled = await json(await server.api(`/store/orders/${ids[1]}`));
    const again = (await json(await place(cancelled.petId))) as { id: number };
    expect(await json(await server.api(`/store/orders?petId=${cancelled.petId}&status=cancelled`))).toEqual([cancelled]);
    expect((await json(await server.api(`/store/orders?petId=${cancelled.petId}&status=placed`))).map((o: { id: number }) => o.id)).toEqual([again.id]);
    expect((await json(await server.api(`/store/orders?petId=${cancelled.petId}`))).map((o: { id: number }) => o.id)).toEqual([ids[1], again.id]);
    await expectError(await server.api("/store/orders?status=sold"), 400, "invalid_parameter");
    await expectError(await server.api("/store/orders?limit=101"), 400, "invalid_parameter");
    await expectError(await server.api("/store/orders?cursor=nope"), 400, "invalid_parameter");
    await expectError(await server.api("/store/orders?pet=1"), 400, "invalid_parameter");
  });

  it("GET /store/orders/{id}: 200 with ETag, 304 for If-None-Match while unchanged, 404 unknown", async () => {
    const { order } = await placed();
    const response = await server.api(`/store/orders/${order.id}`);
    expect(await json(response)).toEqual(order);
    expect(response.headers.get("etag")).toBe(`"order-${order.id}-1"`);
    const unchanged = await server.api(`/store/orders/${order.id}`, { headers: { "if-none-match": `"order-${order.id}-1"` } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get("x-api-stability")).toBe("beta");
    await move(order.id, "approved");
    expect((await server.api(`/store/orders/${order.id}`, { headers: { "if-none-match": `"order-${order.id}-1"` } })).status).toBe(200);
    await expectError(await server.api("/store/orders/999999"), 404, "not_found");
  });
});

describe("GET /v1/store/inventory", () => {
  async function countedByListing(): Promise<Record<string, number>> {
    const counts: Record<string, number> = { available: 0, pending: 0, sold: 0 };
    for (const status of Object.keys(counts)) {
      let url: string | undefined = `/pets?limit=100&status=${status}`;
      while (url) {
        const response = await server.api(url);
        counts[status]! += (await json(response)).length;
        url = /<([^>]+)>; rel="next"/.exec(response.headers.get("link") ?? "")?.[1];
      }
    }
    return counts;
  }

  it("counts pets per status, exact after a burst of mixed changes", async () => {
    const pets = await Promise.all(Array.from({ length: 30 }, (_, i) => newPet(i % 5 === 0 ? "sold" : "available")));
    const orders = await Promise.all(pets.map((pet) => place(pet.id).then((response) => (response.status === 201 ? json(response) : undefined))));
    await Promise.all(
      orders.map((order, i) => {
        if (!order) return server.api(`/pets/${pets[i]!.id}`, { method: "DELETE" });
        if (i % 3 === 0) return move(order.id, "cancelled");
        if (i % 3 === 1) return move(order.id, "approved").then(() => move(order.id, "delivered"));
        return server.api("/pets", { json: { name: "Extra", categoryId: 1 } });
      }),
    );
    const response = await server.api("/store/inventory");
    expect(response.headers.get("x-api-stability")).toBe("beta");
    expect(await json(response)).toEqual(await countedByListing());
  });
});

describe("GET /v1/store/inventory while orders move", () => {
  it("always adds up to the same number of pets: each answer is one instant, never half a change", async () => {
    const total = async () => Object.values(await json(await server.api("/store/inventory")) as Record<string, number>).reduce((a, b) => a + b, 0);
    const pets = await Promise.all(Array.from({ length: 20 }, () => newPet()));
    const expected = await total();
    let moving = true;
    const sums: number[] = [];
    const reading = (async () => {
      while (moving) sums.push(await total());
    })();
    await Promise.all(
      pets.map(async (pet, i) => {
        const order = await json(await place(pet.id));
        if (i % 2 === 0) await move(order.id, "cancelled");
        else await move(order.id, "approved").then(() => move(order.id, "delivered"));
      }),
    );
    moving = false;
    await reading;
    expect(sums.length).toBeGreaterThan(0);
    expect(new Set(sums)).toEqual(new Set([expected]));
  });
});

describe("after a restart", () => {
  it("keeps orders with their pets and never reuses an order id", async () => {
    const own = await startTestServer();
    const pet = await json(await own.api("/pets", { json: { name: "A", categoryId: 1 } }));
    const first = await json(await own.api("/store/orders", { json: { petId: pet.id } }));
    await own.api(`/store/orders/${first.id}`, { method: "PATCH", json: { status: "cancelled" } });
    await own.close();
    const again = await startTestServer({ db: own.dbPath });
    try {
      expect((await json(await again.api(`/store/orders/${first.id}`))).status).toBe("cancelled");
      const second = await json(await again.api("/store/orders", { json: { petId: pet.id } }));
      expect(second.id).toBeGreaterThan(first.id);
      expect((await json(await again.api(`/pets/${pet.id}`))).status).toBe("pending");
    } finally {
      await again.close();
    }
  });
});
