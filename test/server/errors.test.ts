// The app as a fetch function (h3's app.fetch), over the memory engine: the error path for
// failures that cannot be provoked through HTTP alone.
import { describe, expect, it } from "vitest";
import { StorageUnavailableError } from "../../src/store/errors.js";
import type { PetStore } from "../../src/store/pet-store.js";
import { expectError, expectRateLimitHeaders } from "../helpers/assertions.js";
import { checkResponse } from "../helpers/conformance.js";
import { memoryApp } from "../helpers/memory-app.js";

const ADMIN = "ps_errors_test_admin_key_0123456789";

/** A pet engine whose disk is gone: a real failure mode, not a stand-in for our store. */
class BrokenPetStore implements PetStore {
  constructor(private readonly failure: Error) {}
  create(): never {
    throw this.failure;
  }
  get(): never {
    throw this.failure;
  }
  list(): never {
    throw this.failure;
  }
  update(): never {
    throw this.failure;
  }
  delete(): never {
    throw this.failure;
  }
}

async function appWith(pets: (real: PetStore) => PetStore) {
  let stderr = "";
  const { app } = await memoryApp({ adminKey: ADMIN, pets, write: (chunk: string) => (stderr += chunk) });
  const call = async (path: string, init: RequestInit = {}) => {
    const url = `http://petstore.test/v1${path}`;
    const response = await app.fetch(new Request(url, { ...init, headers: { authorization: `Bearer ${ADMIN}`, ...init.headers } }));
    await checkResponse(init.method ?? "GET", url, response.clone());
    return response;
  };
  return { call, stderr: () => stderr };
}

describe("unexpected failures", () => {
  it("answer 500 internal_error without the stack, and log the stack to stderr", async () => {
    const { call, stderr } = await appWith(() => new BrokenPetStore(new Error("the disk caught fire")));
    const response = await call("/pets");
    expectRateLimitHeaders(response);
    const message = await expectError(response, 500, "internal_error");
    expect(message).not.toMatch(/fire/);
    expect(stderr()).toMatch(/GET \/v1\/pets failed\nError: the disk caught fire\n\s+at /);
  });
});

describe("storage failures", () => {
  it("answer a create with 503 storage_unavailable and Retry-After, never 201", async () => {
    const { call } = await appWith(() => new BrokenPetStore(new StorageUnavailableError("/db.json", "EROFS")));
    const response = await call("/pets", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "a", categoryId: 1 }),
    });
    expect(response.headers.get("retry-after")).toBe("5");
    await expectError(response, 503, "storage_unavailable");
  });
});

describe("the app as a fetch function", () => {
  it("serves the same routes without a port", async () => {
    const { call } = await appWith((real) => real);
    const created = await call("/pets", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "a", categoryId: 1 }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe("/v1/pets/1");
    expect(await (await call("/pets/1")).json()).toEqual({ id: 1, name: "a", categoryId: 1, status: "available" });
  });
});

describe("a path outside the API", () => {
  it.each([
    ["/", "no such resource: GET /. The API is under /v1 (e.g. GET /v1/pets, with a key); its reference is at /docs"],
    ["/pets", "no such resource: GET /pets. The API is under /v1 (e.g. GET /v1/pets, with a key); its reference is at /docs"],
  ])("GET %s without a key: 404 not_found whose message points to /v1 and /docs", async (path, message) => {
    const { app } = await memoryApp({ adminKey: ADMIN });
    const url = `http://petstore.test${path}`;
    const response = await app.fetch(new Request(url, { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" } }));
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await expectError(response, 404, "not_found")).toBe(message);
  });

  it("a path under /v1 that names nothing keeps the plain message", async () => {
    const { app } = await memoryApp({ adminKey: ADMIN });
    const response = await app.fetch(new Request("http://petstore.test/v1/nothing", { headers: { authorization: `Bearer ${ADMIN}` } }));
    expect(await expectError(response, 404, "not_found")).toBe("no such resource: GET /v1/nothing");
  });
});
