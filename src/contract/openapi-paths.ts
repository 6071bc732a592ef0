// The operations of the OpenAPI document, path by path, with exactly the statuses the server
// can answer each one with (read from src/server: the guard, the routes, the error handler).
import { schemaRef, type JsonSchema } from "./openapi-schemas.js";
import { DEPRECATION_HEADERS, errorResponses, response, type ErrorResponseName } from "./openapi-responses.js";
import { GET_PET_DEPRECATED_AT, GET_PET_SUNSET_HTTP_DATE, LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_LIMIT_MIN } from "./values.js";

export const BEARER = "bearerAuth";
const withKey = [{ [BEARER]: [] }];

/**
 * Every /v1 operation can be refused for its key, for the rate limit, for a database or Redis out
 * of reach, or fail unexpectedly.
 */
const GUARDED: ErrorResponseName[] = ["Unauthorized", "TooManyRequests", "InternalError", "StorageUnavailable"];
const WRITES_BODY: ErrorResponseName[] = ["InvalidBody", "PayloadTooLarge", "UnsupportedMediaType"];

const SUNSET_DATE = new Date(GET_PET_SUNSET_HTTP_DATE).toISOString().slice(0, 10);
const DEPRECATED_SINCE = new Date(GET_PET_DEPRECATED_AT * 1000).toISOString().slice(0, 10);

const jsonBody = (name: string) => ({ required: true, content: { "application/json": { schema: schemaRef(name) } } });

const listPets = {
  operationId: "listPets",
  tags: ["pets"],
  summary: "List pets, a page at a time",
  description: "Pets ordered by id. When more follow, `Link` carries the URL of the next page.",
  security: withKey,
  parameters: [
    query("limit", "Maximum number of pets to return.", {
      type: "integer",
      minimum: LIST_LIMIT_MIN,
      maximum: LIST_LIMIT_MAX,
      default: LIST_LIMIT_DEFAULT,
    }),
    query("status", "Only pets with this status.", schemaRef("PetStatus")),
    query("cursor", "Opaque: take it from the `Link` of the previous page.", { type: "string" }),
  ],
  responses: {
    "200": response("A page of pets.", schemaRef("Pets"), ["Link-Next"]),
    ...errorResponses(["InvalidParameter", ...GUARDED]),
  },
};

const createPet = {
  operationId: "createPet",
  tags: ["pets"],
  summary: "Add a pet",
  description: "Answers 201 only once the pet is on disk. A pet sent without `status` is `available`.",
  security: withKey,
  requestBody: jsonBody("NewPet"),
  responses: {
    "201": response("The pet, with the id the service assigned.", schemaRef("Pet"), ["Location"]),
    ...errorResponses([...WRITES_BODY, ...GUARDED]),
  },
};

const getPet = {
  operationId: "getPet",
  tags: ["pets"],
  summary: "Get a pet by id (deprecated)",
  description:
    `Deprecated since ${DEPRECATED_SINCE}; removed on ${SUNSET_DATE} (Sunset: ${GET_PET_SUNSET_HTTP_DATE}). ` +
    "Use GET /pets with the status filter instead. Every response carries Deprecation, Sunset and Link.",
  deprecated: true,
  "x-sunset": SUNSET_DATE,
  security: withKey,
  parameters: [
    { name: "petId", in: "path", required: true, description: "The pet's id.", schema: { type: "integer", format: "int64", minimum: 1 } },
  ],
  responses: {
    "200": response("The pet.", schemaRef("Pet"), DEPRECATION_HEADERS),
    ...errorResponses(["InvalidParameter", "NotFound", ...GUARDED], DEPRECATION_HEADERS),
  },
};

const createKey = {
  operationId: "createKey",
  tags: ["keys"],
  summary: "Create an API key (admin)",
  description: "The secret is in this response and nowhere else.",
  security: withKey,
  requestBody: jsonBody("NewKey"),
  responses: {
    "201": response("The key, with its secret.", schemaRef("CreatedKey"), ["Location"]),
    ...errorResponses([...WRITES_BODY, "Forbidden", ...GUARDED]),
  },
};

const listKeys = {
  operationId: "listKeys",
  tags: ["keys"],
  summary: "List every API key (admin)",
  description: "Without secrets or hashes.",
  security: withKey,
  responses: {
    "200": response("Every key.", { type: "array", items: schemaRef("KeyView") }),
    ...errorResponses(["Forbidden", ...GUARDED]),
  },
};

const revokeKey = {
  operationId: "revokeKey",
  tags: ["keys"],
  summary: "Revoke an API key (admin)",
  description: "The key is refused from the next request on.",
  security: withKey,
  parameters: [{ name: "id", in: "path", required: true, description: "The key's id.", schema: { type: "string" } }],
  responses: {
    "204": response("Revoked.", undefined),
    ...errorResponses(["Forbidden", "NotFound", ...GUARDED]),
  },
};

const getOpenApi = {
  operationId: "getOpenApi",
  tags: ["meta"],
  summary: "This document",
  description: "Served without a key; still counted against the caller's rate limit.",
  security: [],
  responses: {
    "200": response("The OpenAPI 3.1 document.", {
      type: "object",
      properties: { openapi: { type: "string", pattern: "^3\\.1\\." }, info: { type: "object" }, paths: { type: "object" } },
      required: ["openapi", "info", "paths"],
    }),
    ...errorResponses(["TooManyRequests", "InternalError", "StorageUnavailable"]),
  },
};

/** The paths, in the order the server registers them. */
export function paths(): Record<string, JsonSchema> {
  return {
    "/pets": pathItem({ get: listPets, post: createPet }),
    "/pets/{petId}": pathItem({ get: getPet }),
    "/keys": pathItem({ get: listKeys, post: createKey }),
    "/keys/{id}": pathItem({ delete: revokeKey }),
    "/openapi.json": pathItem({ get: getOpenApi }),
  };
}

/** The Allow header the server sends for a path: its methods, with HEAD wherever GET is. */
export function allowedMethods(methods: readonly string[]): string[] {
  const allowed = methods.map((method) => method.toUpperCase());
  if (allowed.includes("GET")) allowed.splice(allowed.indexOf("GET") + 1, 0, "HEAD");
  return allowed;
}

function pathItem(operations: Record<string, JsonSchema>): JsonSchema {
  const allow = allowedMethods(Object.keys(operations)).join(", ");
  const deprecated = Object.values(operations).every((operation) => operation.deprecated === true);
  const description = [
    "HEAD is served wherever GET is.",
    `Other methods: 405 method_not_allowed with \`Allow: ${allow}\` (#/components/responses/MethodNotAllowed).`,
    // RFC 9745 and RFC 8594 deprecate the resource, so the server marks every answer for it.
    ...(deprecated ? ["The path is deprecated: every response for it, 405 included, carries Deprecation, Sunset and Link."] : []),
  ];
  return { description: description.join(" "), ...operations };
}

function query(name: string, description: string, schema: JsonSchema): JsonSchema {
  return { name, in: "query", required: false, description, schema };
}
