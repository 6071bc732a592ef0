import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { startPetstore, type TestPetstore } from "petstore/testing";

let petstore: TestPetstore;

beforeAll(async () => {
  petstore = await startPetstore({
    seed: {
      pets: [{ id: 1, name: "Rex", categoryId: 1 }],
      keys: [{ key: "ps_SuiteAdmin000000000000000000000000000000", plan: "enterprise", admin: true, perMinute: 100000, perDay: 10000000 }],
    },
  });
});
afterEach(() => petstore.reset());
afterAll(() => petstore.close());

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${petstore.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${petstore.adminKey}`, "content-type": "application/json" } });

it("adds a pet", async () => {
  const created = await api("/pets", { method: "POST", body: JSON.stringify({ name: "Tom", categoryId: 2 }) });
  expect(await created.json()).toMatchObject({ id: 2, name: "Tom" });
});

it("starts again from the seed", async () => {
  expect(await (await api("/pets")).json()).toEqual([{ id: 1, name: "Rex", categoryId: 1, status: "available" }]);
});

it("meets the faults it asks for", async () => {
  await petstore.setChaos("status=503@100%");
  expect((await api("/pets")).status).toBe(503);
  await petstore.setChaos("off");
  expect((await api("/pets")).status).toBe(200);
});
