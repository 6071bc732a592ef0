// The route table is what the server and the document read: an entry's own access, deprecation
// and stability reach the answers and the document, whatever the other entries say.
import { H3 } from "h3";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../src/contract/openapi.js";
import { groupByPath, ROUTES, type RouteEntry } from "../../src/contract/routes.js";
import { MemoryRateLimiter } from "../../src/limits/memory-rate-limiter.js";
import { toErrorResponse } from "../../src/server/error-response.js";
import { issueKey } from "../../src/server/keys/issue-key.js";
import { environmentAdminKey } from "../../src/server/keys/admin-keys.js";
import { createGuard } from "../../src/server/middleware/guard.js";
import { createLogger } from "../../src/server/request-log.js";
import { registerRoutes } from "../../src/server/routes/register.js";
import { openMemoryStore } from "../../src/store/memory/open-memory-store.js";
import { expectError } from "../helpers/assertions.js";
import { UNSCOPED_KEY_SCOPES } from "../../src/contract/scopes.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON document, read by path
const doc = buildOpenApiDocument() as any;

describe("the document is generated from the table", () => {
  it("has exactly the table's documented operations, at their method and path", () => {
    const inDocument = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item as object).filter(([key]) => ["get", "post", "put", "patch", "delete"].includes(key)).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    const documented = ROUTES.filter((route: RouteEntry) => route.doc).map((route) => `${route.method} ${route.path} ${route.operationId}`);
    expect(inDocument.sort()).toEqual(documented.sort());
    expect(documented).not.toContain(expect.stringContaining("/healthz"));
  });

  it("gives each router path the Allow of its entries, HEAD wherever GET is", () => {
    const allow = Object.fromEntries(groupByPath().map((group) => [group.routerPath, group.allow.join(", ")]));
    // One router path per path of the table; those below pin the rule on each kind of path.
    expect(Object.keys(allow).length).toBe(new Set(ROUTES.map((route: RouteEntry) => route.path)).size);
    expect(allow).toMatchObject({
      "/healthz": "GET, HEAD",
      "/readyz": "GET, HEAD",
      "/metrics": "GET, HEAD",
      "/v1/pets": "GET, HEAD, POST",
      "/v1/pets/:petId": "GET, HEAD, PATCH, DELETE",
      "/v1/store/orders": "GET, HEAD, POST",
      "/v1/store/orders/:orderId": "GET, HEAD, PATCH",
      "/v1/store/inventory": "GET, HEAD",
      "/v1/events": "GET, HEAD",
      "/v1/events/tickets": "POST",
      "/v1/keys": "GET, HEAD, POST",
      "/v1/keys/:id": "DELETE",
      "/v1/keys/:id/rotate": "POST",
      "/v1/admin/backup": "POST",
      "/v1/keys/current": "GET, HEAD",
      "/v1/openapi.json": "GET, HEAD",
    });
  });
});

/** Two routes no real entry has: a beta one, and one deprecated with its own dates and successor. */
const EXTRA = [
  { operationId: "listCarts", method: "GET", path: "/store/carts", access: "key", stability: "beta", doc: orderDoc("List carts (beta)") },
  {
    operationId: "oldOrders",
    method: "GET",
    path: "/orders",
    access: "key",
    stability: "stable",
    deprecated: { since: 1_800_000_000, sunset: "Sat, 01 Jan 2033 00:00:00 GMT", successor: "/store/carts", successorText: "GET /store/carts" },
    doc: orderDoc("Old orders"),
  },
  { operationId: "audit", method: "GET", path: "/audit", access: "admin", stability: "stable", doc: orderDoc("Audit (admin)") },
] as const satisfies readonly RouteEntry[];
const TABLE = [...ROUTES, ...EXTRA];

function orderDoc(summary: string) {
  return { tag: "pets", summary, success: { status: 200, description: "Orders.", schema: { type: "array" } } } as const;
}

async function tableApp() {
  const store = await openMemoryStore();
  const now = () => Date.UTC(2026, 10, 22, 12);
  const admin = environmentAdminKey("ps_routes_test_admin_key_0123456789", now);
  const { secret, record } = issueKey({ plan: "free", name: null, admin: false, scopes: UNSCOPED_KEY_SCOPES, limits: null }, now);
  await store.keys.create(record);
  const logger = createLogger({ write: () => true }, { quiet: true, now });
  const app = new H3({ silent: true, onError: (error, event) => toErrorResponse(error, event, logger) });
  app.use(
    createGuard({
      keys: store.keys,
      limiter: new MemoryRateLimiter({ now }),
      limitsOf: () => ({ perMinute: 1000, perDay: 1000 }),
      anonymousLimits: { perMinute: 1000, perDay: 1000 },
      environmentAdmin: admin,
      trustProxy: false,
      now,
    }),
  );
  const ok = () => [{ id: 1 }];
  registerRoutes(app, EXTRA, { listCarts: ok, oldOrders: ok, audit: ok });
  const call = (path: string, key: string, method = "GET") =>
    app.fetch(new Request(`http://petstore.test/v1${path}`, { method, headers: { authorization: `Bearer ${key}` } }));
  return { call, adminKey: "ps_routes_test_admin_key_0123456789", userKey: secret };
}

describe("each route's own entry marks its answers", () => {
  it("a beta route answers X-API-Stability: beta; a stable one does not", async () => {
    const { call, userKey } = await tableApp();
    const beta = await call("/store/carts", userKey);
    expect(beta.status).toBe(200);
    expect(beta.headers.get("x-api-stability")).toBe("beta");
    expect(beta.headers.get("deprecation")).toBeNull();
    expect((await call("/audit", "ps_routes_test_admin_key_0123456789")).headers.get("x-api-stability")).toBeNull();
  });

  it("a deprecated route carries its own dates and successor, on errors and 405 too", async () => {
    const { call, userKey } = await tableApp();
    for (const response of [await call("/orders", userKey), await call("/orders", "ps_unknown_key_0123456789"), await call("/orders", userKey, "POST")]) {
      expect(response.headers.get("deprecation")).toBe("@1800000000");
      expect(response.headers.get("sunset")).toBe("Sat, 01 Jan 2033 00:00:00 GMT");
      expect(response.headers.get("link")).toBe('<http://petstore.test/v1/store/carts>; rel="successor-version"');
    }
    expect((await call("/store/carts", userKey)).headers.get("deprecation")).toBeNull();
  });

  it("an admin route refuses another key with 403 forbidden, from the table alone", async () => {
    const { call, userKey, adminKey } = await tableApp();
    await expectError(await call("/audit", userKey), 403, "forbidden");
    expect((await call("/audit", adminKey)).status).toBe(200);
  });

  it("the document marks the beta operation and declares its header; deprecation headers hold every entry's values", () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const extended = buildOpenApiDocument(TABLE) as any;
    const listCarts = extended.paths["/store/carts"].get;
    expect(listCarts["x-stability-level"]).toBe("beta");
    expect(Object.keys(listCarts.responses["200"].headers)).toContain("X-API-Stability");
    expect(extended.components.headers["X-API-Stability"].schema).toEqual({ const: "beta" });
    expect(extended.components.headers.Deprecation.schema.enum).toEqual(["@1767225600", "@1800000000"]);
    expect(extended.paths["/orders"].get.description).toMatch(/^Deprecated since 2027-01-15; removed on 2033-01-01 .* Use GET \/store\/carts instead/);
    // The real table has beta routes of its own (the Store group): the same one header.
    expect(doc.components.headers["X-API-Stability"].schema).toEqual({ const: "beta" });
  });
});
