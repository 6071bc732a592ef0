// Issue 20: a create's body is parsed by its schema once per request, whatever the engine.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NewPetSchema, PetSchema } from "../../src/contract/schemas.js";
import { json } from "../helpers/assertions.js";
import { startTestServer, type TestServer } from "../helpers/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("POST /v1/pets validates once", () => {
  it("parses the body with the pet schemas exactly once, and still answers 201 with the stored pet", async () => {
    const parses = [vi.spyOn(NewPetSchema, "safeParse"), vi.spyOn(PetSchema, "safeParse")];
    try {
      const response = await server.api("/pets", { json: { name: "Once", categoryId: 4 } });
      expect(response.status).toBe(201);
      const pet = await json(response);
      expect(pet).toEqual({ id: expect.any(Number), name: "Once", categoryId: 4, status: "available" });
      expect(parses.reduce((calls, spy) => calls + spy.mock.calls.length, 0)).toBe(1);
      expect(await json(await server.api(`/pets/${pet.id}`))).toEqual(pet);
    } finally {
      for (const spy of parses) spy.mockRestore();
    }
  });

  it("a body the schema refuses is a 400 and nothing is stored", async () => {
    const before = await json(await server.api("/pets?limit=100"));
    const refused = await server.api("/pets", { json: { name: "", categoryId: 4 } });
    expect(refused.status).toBe(400);
    expect(await json(await server.api("/pets?limit=100"))).toEqual(before);
  });
});
