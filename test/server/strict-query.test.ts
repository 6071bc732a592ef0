// One rule for query strings on every operation of the API: a parameter the operation does not
// declare, or one given twice, is 400 invalid_parameter naming it, before anything is read or
// changed. The cases come from the route table, so an operation added later is held to it too.
// The probes (/healthz, /readyz), /metrics and the /docs page are outside the API and take any
// query string, as load balancers and cache-busting browsers send them.
import { describe, expect, it } from "vitest";
import { ROUTES, type RouteEntry } from "../../src/contract/routes.js";
import { expectError } from "../helpers/assertions.js";
import { checkResponse } from "../helpers/conformance.js";
import { memoryApp } from "../helpers/memory-app.js";

const ADMIN = "ps_strict_query_test_admin_key_0123456789";
const ORIGIN = "http://petstore.test";
const API_OPERATIONS = (ROUTES as readonly RouteEntry[]).filter((route) => !route.outsideApi);

async function setUp() {
  const { app, store } = await memoryApp({ adminKey: ADMIN });
  const call = async (method: string, path: string, init: { key?: boolean; body?: unknown } = {}) => {
    const headers: Record<string, string> = init.key === false ? {} : { authorization: `Bearer ${ADMIN}` };
    if (init.body !== undefined) headers["content-type"] = "application/json";
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);
    return app.fetch(new Request(`${ORIGIN}${path}`, { method, headers, body }));
  };
  return { call, store };
}

/** The route's path with its parameters filled in (`/pets/{petId}` -> `/v1/pets/1`). */
const pathOf = (route: RouteEntry) => `/v1${route.path.replace(/\{id\}/, "key_strict").replace(/\{\w+\}/g, "1")}`;

describe("an unknown query parameter", () => {
  it.each(API_OPERATIONS.map((route) => [route.operationId, route.method, route] as const))(
    "%s (%s): 400 invalid_parameter naming it, as the document declares",
    async (_id, method, route) => {
      const { call } = await setUp();
      const url = `${pathOf(route)}?stauts=sold`;
      const response = await call(method, url, { body: route.request?.body ? {} : undefined });
      await checkResponse(method, `${ORIGIN}${url}`, response.clone());
      expect(await expectError(response, 400, "invalid_parameter")).toMatch(/^stauts is not a known query parameter \(/);
    },
  );

  it.each([
    ["GET", "/v1/pets/1?x=1", "x is not a known query parameter (this operation takes none)"],
    ["GET", "/v1/pets?x=1", "x is not a known query parameter (known: limit, status, categoryId, q, sort, cursor)"],
    ["GET", "/v1/events?x=1", "x is not a known query parameter (known: types, lastEventId, ticket)"],
    ["GET", "/v1/pets/1?lastEventId=1", "lastEventId is not a known query parameter (this operation takes none)"],
    ["GET", "/v1/events?types=pet.created&types=pet.deleted", "types must be given at most once"],
    ["DELETE", "/v1/keys/key_unknown?force=1", "force is not a known query parameter (this operation takes none)"],
  ])("%s %s: %s", async (method, path, message) => {
    const { call } = await setUp();
    expect(await expectError(await call(method, path), 400, "invalid_parameter")).toBe(message);
  });

  it("refuses a create before anything is created: POST /v1/pets?x=1 with a good body adds no pet", async () => {
    const { call, store } = await setUp();
    const response = await call("POST", "/v1/pets?x=1", { body: { name: "Rex", categoryId: 1 } });
    expect(await expectError(response, 400, "invalid_parameter")).toBe("x is not a known query parameter (this operation takes none)");
    expect((await store.pets.list({ limit: 100 })).pets).toEqual([]);
  });

  it("is refused on the public document too, before any key is asked for", async () => {
    const { call } = await setUp();
    await expectError(await call("GET", "/v1/openapi.json?v=2", { key: false }), 400, "invalid_parameter");
  });
});

describe("outside the API, a query string is ignored", () => {
  it.each(["/healthz?probe=1", "/readyz?from=lb", "/docs?x=1", "/docs/docs.css?v=2"])("GET %s: 200", async (path) => {
    const { call } = await setUp();
    expect((await call("GET", path, { key: false })).status).toBe(200);
  });
});
