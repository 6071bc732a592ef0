// The generated OpenAPI document: valid OpenAPI 3.1 for a maintained validator, and saying what
// the issue asks of it (servers, security, deprecation, statuses and headers per operation). The
// operations and their statuses are read from the route table, by the rules the document states,
// so an operation added to the table is checked without an edit here.
import { compileErrors, validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { allowsStatus, ERROR_CODE_DOCS, type ErrorCode } from "../../src/contract/errors.js";
import { buildOpenApiDocument } from "../../src/contract/openapi.js";
import { ERROR_RESPONSES } from "../../src/contract/responses.js";
import { ROUTES, type RouteEntry } from "../../src/contract/routes.js";
import { ERROR_CODES } from "../../src/contract/values.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON document, read by path
const doc = buildOpenApiDocument() as any;
const RATE_LIMIT = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "RateLimit-Policy", "RateLimit"];

interface Operation {
  id: string;
  method: string;
  path: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  op: any;
}
const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item as object)
    .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
    .map(([method, op]) => ({ id: op.operationId, method, path, op })),
);
const operation = (id: string) => operations.find((candidate) => candidate.id === id)!.op;
const documented = (ROUTES as readonly RouteEntry[]).filter((route) => route.doc !== undefined);
const idsWhere = (test: (route: RouteEntry) => boolean) => documented.filter(test).map((route) => route.operationId).sort();

/**
 * What an operation answers, by the document's rules: its success (and 304 where it answers
 * If-None-Match), 400 (an unknown query parameter, anywhere), 401 unless public, 403 when admin
 * or scoped, 406, 413 and 415 with a body, 429, 500 and 503 anywhere, and the status of each error it names.
 */
function statusesOf(route: RouteEntry): number[] {
  const doc = route.doc!;
  const statuses = new Set([doc.success.status, 400, 406, 429, 500, 503]);
  if (doc.success.notModified) statuses.add(304);
  if (route.access !== "public") statuses.add(401);
  if (route.access === "admin" || route.scope !== undefined) statuses.add(403);
  if (route.request?.body) [413, 415].forEach((status) => statuses.add(status));
  for (const name of doc.errors ?? []) statuses.add(ERROR_RESPONSES[name].status);
  return [...statuses].sort((a, b) => a - b);
}

/** The response object, through its $ref when it has one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const deref = (response: any) => (response.$ref ? doc.components.responses[response.$ref.split("/").pop()] : response);
const headerNames = (response: unknown) => Object.keys(deref(response).headers ?? {});

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1 for @readme/openapi-parser, without warnings", async () => {
    const result = await validate(structuredClone(doc));
    expect(result.valid ? "" : compileErrors(result)).toBe("");
    expect(result.warnings).toEqual([]);
    expect(doc.openapi).toBe("3.1.0");
  });

  it("lists production and staging with their hosts as server variables, each ending in /v1, and the serving one, relative", () => {
    const [production, staging, local] = doc.servers;
    expect(production).toMatchObject({ url: "https://{host}/v1", variables: { host: { default: "api.petstore.example" } } });
    expect(staging).toMatchObject({ url: "https://{stagingHost}/v1", variables: { stagingHost: { default: "staging.api.petstore.example" } } });
    // Relative: the server the document came from, over whatever scheme it was fetched (no http:// URL).
    expect(local).toMatchObject({ url: "/v1", "x-internal": true });
    expect(local.description).toContain("http://127.0.0.1:3000/v1");
    expect([production["x-internal"], staging["x-internal"]]).toEqual([false, true]);
  });

  it("has the shared schemas as components, Error.code an enum of every code with its meaning", () => {
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(["Pet", "NewPet", "PetStatus", "Error", "NewKey", "KeyView", "CreatedKey"]),
    );
    const code = doc.components.schemas.Error.properties.code;
    expect(code.enum).toEqual([...ERROR_CODES]);
    for (const name of ERROR_CODES) expect(code.description).toContain(`\`${name}\` (${ERROR_CODE_DOCS[name].status})`);
    expect(Object.keys(code["x-enumDescriptions"])).toEqual([...ERROR_CODES]);
    expect(doc.components.schemas.Pet.properties.id).toMatchObject({ type: "integer", format: "int64" });
  });

  it("tags the Store operations Store and marks each beta; the pets' are tagged Pets and stable", () => {
    expect(doc.tags.map((tag: { name: string }) => tag.name)).toEqual(["Pets", "Store", "Keys", "Webhooks", "Meta"]);
    const store = operations.filter(({ path }) => path.startsWith("/store/"));
    expect(store.map(({ id }) => id).sort()).toEqual(idsWhere((route) => route.doc?.tag === "store"));
    expect(store.length).toBeGreaterThanOrEqual(5);
    for (const { id, op } of store) {
      expect(op.tags, id).toEqual(["Store"]);
      expect(op["x-stability-level"], id).toBe("beta");
      expect(op.description, id).toMatch(/^Beta:/);
      expect(Object.keys(op.responses["401"].headers), id).toContain("X-API-Stability");
    }
    for (const { id, op } of operations.filter(({ path }) => path.startsWith("/pets"))) {
      expect(op.tags, id).toEqual(["Pets"]);
      expect(op["x-stability-level"], id).toBeUndefined();
    }
  });

  it("applies the bearer scheme with each operation's scope, the admin one to the admin operations, none to getOpenApi", () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.securitySchemes.adminBearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    const admin = idsWhere((route) => route.access === "admin");
    expect([...admin].sort()).toEqual(["createKey", "createWebhook", "deleteWebhook", "getWebhook", "listKeys", "listWebhookDeliveries", "listWebhooks", "resetServer", "retryWebhookDelivery", "revokeKey", "rotateKey", "rotateWebhookSecret", "setChaos", "takeBackup", "testWebhook", "updateWebhook"]);
    const security = Object.fromEntries(operations.map(({ id, op }) => [id, op.security]));
    const scoped = (scope: string) => [{ bearerAuth: [scope] }];
    expect(security).toEqual({
      listPets: scoped("pets:read"),
      getPet: scoped("pets:read"),
      createPet: scoped("pets:write"),
      updatePet: scoped("pets:write"),
      deletePet: scoped("pets:write"),
      listOrders: scoped("orders:read"),
      getOrder: scoped("orders:read"),
      placeOrder: scoped("orders:write"),
      updateOrder: scoped("orders:write"),
      getInventory: scoped("pets:read"),
      streamEvents: scoped("events:read"),
      createEventTicket: scoped("events:read"),
      getCurrentKey: [{ bearerAuth: [] }],
      ...Object.fromEntries(admin.map((id) => [id, [{ adminBearerAuth: [] }]])),
      getOpenApi: [],
    });
  });

  it("says each operation's scope in words too, and answers 403 insufficient_scope with the RFC 6750 challenge where one is needed", () => {
    for (const { id, op } of operations) {
      const scope = op.security[0]?.bearerAuth?.[0] as string | undefined;
      if (scope) {
        expect(op.description, id).toContain(`Needs a key with the \`${scope}\` scope (403 \`insufficient_scope\` without it)`);
        // Through its $ref, or inline where the operation adds its marks (deprecated, beta).
        const refusal = deref(op.responses[403]);
        expect(refusal.content["application/json"].schema.allOf[1].properties.code.enum, id).toEqual(["insufficient_scope"]);
        expect(refusal.headers["WWW-Authenticate"].$ref, id).toBe("#/components/headers/WWW-Authenticate-Scope");
      } else if (op.security[0]?.bearerAuth) {
        expect(op.description, id).toContain("Any valid key may call it, whatever its scopes.");
      }
    }
    const refusal = doc.components.responses.InsufficientScope;
    expect(refusal.content["application/json"].schema.allOf[1].properties.code.enum).toEqual(["insufficient_scope"]);
    expect(refusal.headers["WWW-Authenticate"].$ref).toBe("#/components/headers/WWW-Authenticate-Scope");
    const challenge = new RegExp(doc.components.headers["WWW-Authenticate-Scope"].schema.pattern);
    expect(challenge.test('Bearer error="insufficient_scope", scope="pets:write"')).toBe(true);
    expect(challenge.test('Bearer error="insufficient_scope", scope="pets:read orders:read"')).toBe(true);
    expect(doc.components.responses.Forbidden.content["application/json"].schema.allOf[1].properties.code.enum).toEqual(["forbidden"]);
    expect(doc.info.description).toContain("403 `insufficient_scope`");
  });

  it("has every documented operation of the table at its method and path", () => {
    expect(operations.map(({ id, method, path }) => `${id} ${method} ${path}`).sort()).toEqual(
      documented.map((route) => `${route.operationId} ${route.method.toLowerCase()} ${route.path}`).sort(),
    );
  });

  it.each(documented.map((route) => [route.operationId, route] as const))("%s declares exactly the statuses its entry implies", (id, route) => {
    expect(Object.keys(operation(id).responses).map(Number)).toEqual(statusesOf(route));
  });

  // The rules above, pinned on three operations that between them use each of them.
  it.each([
    ["listPets", [200, 304, 400, 401, 403, 406, 429, 500, 503]],
    ["createPet", [201, 400, 401, 403, 406, 409, 413, 415, 422, 429, 500, 503]],
    ["revokeKey", [204, 400, 401, 403, 404, 406, 429, 500, 503]],
  ])("%s declares exactly %j", (id, statuses) => {
    expect(Object.keys(operation(id).responses).map(Number)).toEqual(statuses);
  });

  it("documents 404 for unlisted paths and 405 for other methods, with Allow", () => {
    expect(doc.info.description).toMatch(/404 `not_found`[\s\S]*#\/components\/responses\/NotFound/);
    expect(headerNames(doc.components.responses.MethodNotAllowed)).toContain("Allow");
    expect(doc.paths["/pets"].description).toContain("405 method_not_allowed with `Allow: GET, HEAD, POST`");
    expect(doc.paths["/keys/{id}"].description).toContain("`Allow: DELETE`");
  });

  it("marks getPet deprecated, with the sunset date and Deprecation, Sunset and Link on every response", () => {
    const getPet = operation("getPet");
    expect(getPet).toMatchObject({ deprecated: true, "x-sunset": "2030-12-05" });
    expect(getPet.description).toContain("2030-12-05");
    for (const response of Object.values(getPet.responses)) {
      expect(headerNames(response)).toEqual(expect.arrayContaining(["Deprecation", "Sunset", "Link"]));
    }
    expect(doc.components.headers.Sunset.schema.const).toBe("Thu, 05 Dec 2030 00:00:00 GMT");
    expect(operations.filter(({ op }) => op.deprecated).map(({ id }) => id)).toEqual(idsWhere((route) => route.deprecated !== undefined));
  });

  it("puts the rate-limit headers on every response, required", () => {
    for (const { id, op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        expect(headerNames(response), `${id} ${status}`).toEqual(expect.arrayContaining(RATE_LIMIT));
      }
    }
    for (const name of RATE_LIMIT) expect(doc.components.headers[name].required).toBe(true);
  });

  it("adds Retry-After on 429 and 503, Location on 201, Link on listPets, WWW-Authenticate on 401", () => {
    for (const { id, op } of operations) {
      const has = (status: number, header: string) => expect(headerNames(op.responses[status]), `${id} ${status}`).toContain(header);
      if (op.responses[429]) has(429, "Retry-After");
      if (op.responses[503]) has(503, "Retry-After");
      if (op.responses[201]) has(201, "Location");
      if (op.responses[401]) has(401, "WWW-Authenticate");
    }
    expect(operation("listPets").responses[200].headers.Link.$ref).toBe("#/components/headers/Link-Next");
    expect(doc.components.headers["Link-Next"].required).toBe(false);
  });

  it("gives every error response the Error body, narrowed to the codes of its status", () => {
    for (const { id, op } of operations) {
      for (const [status, response] of Object.entries(op.responses).filter(([status]) => Number(status) >= 400)) {
        const [error, narrowed] = deref(response).content["application/json"].schema.allOf;
        expect(error, `${id} ${status}`).toEqual({ $ref: "#/components/schemas/Error" });
        for (const code of narrowed.properties.code.enum) expect(allowsStatus(code as ErrorCode, Number(status)), `${code} with ${status}`).toBe(true);
      }
    }
    expect(operation("createPet").responses[400].$ref).toBe("#/components/responses/InvalidParameterOrBody");
    expect(operation("updatePet").responses[400].$ref).toBe("#/components/responses/InvalidParameterOrBody");
    expect(operation("listPets").responses[400].$ref).toBe("#/components/responses/InvalidParameter");
  });

  it.each(["createPet", "createKey"])("%s takes an optional Idempotency-Key and may answer Idempotent-Replayed, 409 and 422", (id) => {
    const op = operation(id);
    const parameter = op.parameters.find((candidate: { name: string }) => candidate.name === "Idempotency-Key");
    expect(parameter).toMatchObject({ in: "header", required: false, schema: { type: "string", minLength: 1, maxLength: 255 } });
    expect(op.responses[201].headers["Idempotent-Replayed"].$ref).toBe("#/components/headers/Idempotent-Replayed");
    expect(doc.components.headers["Idempotent-Replayed"]).toMatchObject({ required: false, schema: { const: "true" } });
    expect(op.responses[409].$ref).toBe("#/components/responses/IdempotencyKeyInProgress");
    expect(op.responses[422].$ref).toBe("#/components/responses/IdempotencyKeyReused");
    const codes = (name: string) => deref({ $ref: `#/components/responses/${name}` }).content["application/json"].schema.allOf[1].properties.code.enum;
    expect(codes("IdempotencyKeyInProgress")).toEqual(["idempotency_key_in_progress"]);
    expect(codes("IdempotencyKeyReused")).toEqual(["idempotency_key_reused"]);
  });
});
