// Every operation of the server once: the router registers these, the guard reads who may call
// each and which headers mark it, and the OpenAPI document is generated from them. A new endpoint
// is one entry here, one handler in src/server/app.ts and its tests. Free of zod and h3.
import {
  API_PREFIX,
  GET_PET_DEPRECATED_AT,
  GET_PET_SUNSET_HTTP_DATE,
  HEALTH_PATH,
  READY_PATH,
  METRICS_PATH,
  LIST_LIMIT_DEFAULT,
  LIST_LIMIT_MAX,
  LIST_LIMIT_MIN,
  INSTANT_MAX_LENGTH,
  KEY_ID_MAX_LENGTH,
  KEY_ID_PATTERN,
} from "./constants.js";
import { EVENT_BACKLOG, EVENT_KEEP_ALIVE_MS, EVENT_TICKET_PATTERN, EVENT_TICKET_TTL_SECONDS, EVENT_TYPES, MAX_STREAMS_PER_KEY } from "./events.js";
import { CONDITION_MAX_LENGTH, CURSOR_MAX_LENGTH, EVENT_TYPES_MAX_LENGTH, hours, MAX_KEYS, IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_TTL_MS } from "./limits.js";
import type { ErrorResponseName, HeaderName } from "./response-names.js";

export type JsonSchema = Record<string, unknown>;
export type Method = "GET" | "POST" | "PATCH" | "DELETE";

/** The value of `X-API-Stability` on every answer of a beta operation. */
export const BETA_MARKER = "beta";

/** Who may call an operation: anyone, any valid key, or an admin key only. */
export type Access = "public" | "key" | "admin";

/** RFC 9745 and RFC 8594: deprecated since, removed at, and what replaces it. */
export interface Deprecation {
  /** Unix seconds. */
  since: number;
  /** An HTTP date. */
  sunset: string;
  /** The replacement's path under the API prefix, sent as `Link: <...>; rel="successor-version"`. */
  successor: string;
  /** The replacement in words, for the document. */
  successorText: string;
}

export interface Parameter {
  name: string;
  in: "query" | "path" | "header";
  description: string;
  schema: JsonSchema;
}

export interface SuccessResponse {
  status: 200 | 201 | 204;
  description: string;
  /** Answers 304 Not Modified (no body, its ETag) to an If-None-Match that names the current ETag. */
  notModified?: boolean;
  /** The body's schema; none for 204. */
  schema?: JsonSchema;
  /** The body's media type when it is not application/json (text/event-stream). */
  mediaType?: string;
  headers?: HeaderName[];
}

/** What the OpenAPI document says of an operation beyond what the guard and router need. */
export interface OperationDoc {
  tag: "pets" | "store" | "keys" | "meta";
  summary: string;
  /** A deprecated operation's description starts with its dates and replacement. */
  description?: string;
  success: SuccessResponse;
  /** The errors of this operation itself; the ones every operation shares are added by answers(). */
  errors?: ErrorResponseName[];
}

export interface RouteEntry {
  operationId: string;
  method: Method;
  /** Relative to the API prefix, as in the document: `/pets/{petId}`. */
  path: string;
  /** Outside the API prefix and out of the document (GET /healthz). */
  outsideApi?: boolean;
  access: Access;
  /** Not counted against any rate limit, and without rate-limit headers. */
  unlimited?: boolean;
  stability: "stable" | "beta";
  deprecated?: Deprecation;
  /** `body` names a component schema, sent as one of `mediaTypes` (application/json when absent). */
  request?: { body?: string; mediaTypes?: readonly string[]; parameters?: Parameter[] };
  /** Absent: not an API operation, not in the document. */
  doc?: OperationDoc;
  /** Also opened by `?ticket=` from createEventTicket, for a browser's EventSource (it cannot send Authorization). */
  ticket?: true;
}

const schemaRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const query = (name: string, description: string, schema: JsonSchema): Parameter => ({ name, in: "query", description, schema });

/** An id: a positive safe integer (the server answers 400 beyond Number.MAX_SAFE_INTEGER). */
const ID: JsonSchema = { type: "integer", format: "int64", minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
const LIMIT: JsonSchema = { type: "integer", format: "int32", minimum: LIST_LIMIT_MIN, maximum: LIST_LIMIT_MAX, default: LIST_LIMIT_DEFAULT };
/** A cursor is what the server wrote into a Link: base64url, at most 32 characters. */
const CURSOR: JsonSchema = { type: "string", minLength: 1, maxLength: CURSOR_MAX_LENGTH, pattern: "^[A-Za-z0-9_-]+$" };
const EVENT_ID: JsonSchema = { type: "integer", format: "int64", minimum: 0, maximum: Number.MAX_SAFE_INTEGER };
const INSTANT: JsonSchema = { type: "string", format: "date-time", maxLength: INSTANT_MAX_LENGTH };
const KEY_ID: Parameter = {
  name: "id",
  in: "path",
  description: "The key's id. An id of another form names no key: 404.",
  schema: { type: "string", maxLength: KEY_ID_MAX_LENGTH, pattern: KEY_ID_PATTERN },
};

/** One rate-limit window as GET /keys/current reports it. */
const USAGE_WINDOW: JsonSchema = {
  type: "object",
  properties: {
    limit: { type: "integer", format: "int64", minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    remaining: { type: "integer", format: "int64", minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: "Requests left in this window." },
    resetAt: { ...INSTANT, description: "When the window starts afresh (UTC-aligned)." },
  },
  required: ["limit", "remaining", "resetAt"],
  additionalProperties: false,
};

const IF_NONE_MATCH: Parameter = {
  name: "If-None-Match",
  in: "header",
  description: "ETags of representations you hold: 304 Not Modified, without a body, when one is current.",
  schema: { type: "string", maxLength: CONDITION_MAX_LENGTH },
};
const IF_MATCH: Parameter = {
  name: "If-Match",
  in: "header",
  description: "The pet's ETag as you last read it: 412 precondition_failed, changing nothing, when the pet has changed since.",
  schema: { type: "string", maxLength: CONDITION_MAX_LENGTH },
};

const IDEMPOTENCY_KEY: Parameter = {
  name: "Idempotency-Key",
  in: "header",
  description:
    `Any unique value (a UUID), 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters, kept for ${hours(IDEMPOTENCY_TTL_MS)} per API key ` +
    "(draft-ietf-httpapi-idempotency-key-header). Sent again with the same body, the first answer comes back " +
    "(`Idempotent-Replayed: true`) and nothing is created; with another body: 422 idempotency_key_reused; " +
    "while the first is still being answered: 409 idempotency_key_in_progress.",
  schema: { type: "string", minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: "^[!-~]+$" },
};

/** The errors an operation with an Idempotency-Key adds to its own. */
const IDEMPOTENCY_ERRORS = ["InvalidParameter", "IdempotencyKeyInProgress", "IdempotencyKeyReused"] as const;

const PET_ID: Parameter = { name: "petId", in: "path", description: "The pet's id.", schema: ID };

/** What updatePet accepts: RFC 7396's own media type, and plain JSON for clients that only know that. */
export const MERGE_PATCH_MEDIA_TYPES = ["application/merge-patch+json", "application/json"] as const;


const ORDER_ID: Parameter = { name: "orderId", in: "path", description: "The order's id.", schema: ID };
const ORDER_IF_MATCH: Parameter = { ...IF_MATCH, description: "The order's ETag as you last read it: 412 precondition_failed, changing nothing, when it has changed since." };
const BETA_TEXT = "Beta: the Store group may still change within v1; every answer carries `X-API-Stability: beta`.";

/** The Store group (beta): orders that move a pet from available to sold, and the inventory. */
const STORE_ROUTES = [
  {
    operationId: "listOrders",
    method: "GET",
    path: "/store/orders",
    access: "key",
    stability: "beta",
    request: {
      parameters: [
        query("limit", "Maximum number of orders to return.", LIMIT),
        query("status", "Only orders with this status.", schemaRef("OrderStatus")),
        query("petId", "Only orders for this pet; combines with status.", ID),
        query("cursor", "Opaque: take it from the `Link` of the previous page.", CURSOR),
      ],
    },
    doc: {
      tag: "store",
      summary: "List orders, a page at a time (beta)",
      description: `${BETA_TEXT} Orders ordered by id, filtered by status and/or pet, paginated as GET /pets is.`,
      success: { status: 200, description: "A page of orders.", schema: schemaRef("Orders"), headers: ["Link-Next"] },
      errors: ["InvalidParameter"],
    },
  },
  {
    operationId: "placeOrder",
    method: "POST",
    path: "/store/orders",
    access: "key",
    stability: "beta",
    request: { body: "NewOrder", parameters: [IDEMPOTENCY_KEY] },
    doc: {
      tag: "store",
      summary: "Order a pet (beta)",
      description:
        `${BETA_TEXT} The pet must exist (404) and be available (409 pet_not_available). In one durable step ` +
        "the order is created (placed) and the pet becomes pending; of concurrent orders for one pet exactly one succeeds. " +
        "With an Idempotency-Key, a retry gets the first answer again instead of a second order.",
      success: { status: 201, description: "The order.", schema: schemaRef("Order"), headers: ["Location", "ETag", "Idempotent-Replayed"] },
      // One response per status: the 409 is either the pet's or the Idempotency-Key's.
      errors: ["NotFound", "InvalidParameter", "PetNotAvailableOrKeyInProgress", "IdempotencyKeyReused"],
    },
  },
  {
    operationId: "getOrder",
    method: "GET",
    path: "/store/orders/{orderId}",
    access: "key",
    stability: "beta",
    request: { parameters: [ORDER_ID, IF_NONE_MATCH] },
    doc: {
      tag: "store",
      summary: "Get an order by id (beta)",
      description: BETA_TEXT,
      success: { status: 200, description: "The order.", schema: schemaRef("Order"), headers: ["ETag"], notModified: true },
      errors: ["InvalidParameter", "NotFound"],
    },
  },
  {
    operationId: "updateOrder",
    method: "PATCH",
    path: "/store/orders/{orderId}",
    access: "key",
    stability: "beta",
    request: { body: "OrderPatch", mediaTypes: MERGE_PATCH_MEDIA_TYPES, parameters: [ORDER_ID, ORDER_IF_MATCH] },
    doc: {
      tag: "store",
      summary: "Move an order on: approve, deliver or cancel it (beta)",
      description:
        `${BETA_TEXT} placed -> approved -> delivered, placed | approved -> cancelled; any other is 409 invalid_transition. ` +
        "delivered makes the pet sold, cancelled makes it available again, in the same durable step as the order's change.",
      success: { status: 200, description: "The order, as updated.", schema: schemaRef("Order"), headers: ["ETag"] },
      errors: ["InvalidParameter", "NotFound", "PreconditionFailed", "InvalidTransition"],
    },
  },
  {
    operationId: "getInventory",
    method: "GET",
    path: "/store/inventory",
    access: "key",
    stability: "beta",
    doc: {
      tag: "store",
      summary: "How many pets have each status (beta)",
      description: `${BETA_TEXT} Counted as changes are made, never by reading every pet; exact at the instant it answers.`,
      success: { status: 200, description: "The counts.", schema: schemaRef("Inventory") },
    },
  },
] as const satisfies readonly RouteEntry[];

const EVENTS_ROUTE = {
  operationId: "streamEvents",
  method: "GET",
  path: "/events",
  access: "key",
  ticket: true,
  stability: "stable",
  request: {
    parameters: [
      query("types", `Comma-separated event types to receive (${EVENT_TYPES.join(", ")}); all when absent.`, {
        type: "string",
        maxLength: EVENT_TYPES_MAX_LENGTH,
        pattern: `^ *(${EVENT_TYPES.join("|").replaceAll(".", "\\.")}) *(, *(${EVENT_TYPES.join("|").replaceAll(".", "\\.")}) *)*$`,
      }),
      query("lastEventId", "Resume after this event id, for clients that cannot send the Last-Event-ID header.", EVENT_ID),
      query(
        "ticket",
        `Instead of Authorization, for a browser's EventSource (which cannot send headers): a ticket from POST /events/tickets, for one request within ${EVENT_TICKET_TTL_SECONDS} s. Never put the API key itself in a URL.`,
        { type: "string", maxLength: 120, pattern: EVENT_TICKET_PATTERN },
      ),
      {
        name: "Last-Event-ID",
        in: "header",
        description:
          `Resume after this event id: the events after it are replayed from the backlog (the last ${EVENT_BACKLOG.events} events or the last hour, ` +
          "whichever holds more), then the stream goes live. An id older than the backlog gets `event: reset` first: list again.",
        schema: EVENT_ID,
      },
    ],
  },
  doc: {
    tag: "meta",
    summary: "Follow every change as Server-Sent Events",
    description:
      `A text/event-stream (WHATWG Server-Sent Events). Events: ${EVENT_TYPES.join(", ")}, and reset. Each has \`id:\` (an increasing integer, ` +
      "global to the store) and one `data:` line of JSON {type, id, at, data}, data being the record after the change ({id} for pet.deleted). " +
      `Sent after the change is durable, in durable order. A \`: keep-alive\` comment every ${EVENT_KEEP_ALIVE_MS / 1000} s. ` +
      `At most ${MAX_STREAMS_PER_KEY} open streams per key (429 too_many_streams); a revoked key's stream ends within a second.`,
    success: {
      status: 200,
      description: "The stream, open until the client leaves or the server stops.",
      mediaType: "text/event-stream",
      // No `type: string`: a stream open for hours is no string with a length; its syntax is SSE's.
      schema: { description: "event: <type>\\nid: <event id>\\ndata: {\"type\":...,\"id\":...,\"at\":...,\"data\":{...}}" },
    },
    errors: ["InvalidParameter"],
  },
} as const satisfies RouteEntry;

export const ROUTES = [
  {
    operationId: "health",
    method: "GET",
    path: HEALTH_PATH,
    outsideApi: true,
    access: "public",
    unlimited: true,
    stability: "stable",
  },
  {
    // Readiness for load balancers and orchestrators: 503 while the store or Redis does not answer.
    operationId: "ready",
    method: "GET",
    path: READY_PATH,
    outsideApi: true,
    access: "public",
    unlimited: true,
    stability: "stable",
  },
  {
    // Served only with --metrics-token, which it checks itself; 404 otherwise.
    operationId: "metrics",
    method: "GET",
    path: METRICS_PATH,
    outsideApi: true,
    access: "public",
    unlimited: true,
    stability: "stable",
  },
  {
    operationId: "listPets",
    method: "GET",
    path: "/pets",
    access: "key",
    stability: "stable",
    request: {
      parameters: [
        query("limit", "Maximum number of pets to return.", LIMIT),
        query("status", "Only pets with this status.", schemaRef("PetStatus")),
        query("categoryId", "Only pets of this category; combines with status.", ID),
        query("cursor", "Opaque: take it from the `Link` of the previous page.", CURSOR),
        IF_NONE_MATCH,
      ],
    },
    doc: {
      tag: "pets",
      summary: "List pets, a page at a time",
      description:
        "Pets ordered by id, filtered by status and/or category. When more follow, `Link` carries the URL of the next page, with the same filters.",
      success: { status: 200, description: "A page of pets.", schema: schemaRef("Pets"), headers: ["Link-Next", "ETag"], notModified: true },
      errors: ["InvalidParameter"],
    },
  },
  {
    operationId: "createPet",
    method: "POST",
    path: "/pets",
    access: "key",
    stability: "stable",
    request: { body: "NewPet", parameters: [IDEMPOTENCY_KEY] },
    doc: {
      tag: "pets",
      summary: "Add a pet",
      description:
        "Answers 201 only once the pet is on disk. A pet sent without `status` is `available`. " +
        "With an Idempotency-Key, a retry gets the first answer again instead of a second pet.",
      success: {
        status: 201,
        description: "The pet, with the id the service assigned.",
        schema: schemaRef("Pet"),
        headers: ["Location", "ETag", "Idempotent-Replayed"],
      },
      errors: [...IDEMPOTENCY_ERRORS],
    },
  },
  {
    operationId: "getPet",
    method: "GET",
    path: "/pets/{petId}",
    access: "key",
    stability: "stable",
    deprecated: {
      since: GET_PET_DEPRECATED_AT,
      sunset: GET_PET_SUNSET_HTTP_DATE,
      successor: "/pets",
      successorText: "GET /pets with the status filter",
    },
    request: { parameters: [PET_ID, IF_NONE_MATCH] },
    doc: {
      tag: "pets",
      summary: "Get a pet by id (deprecated)",
      success: { status: 200, description: "The pet.", schema: schemaRef("Pet"), headers: ["ETag"], notModified: true },
      errors: ["InvalidParameter", "NotFound"],
    },
  },
  {
    operationId: "updatePet",
    method: "PATCH",
    path: "/pets/{petId}",
    access: "key",
    stability: "stable",
    request: { body: "PetPatch", mediaTypes: MERGE_PATCH_MEDIA_TYPES, parameters: [PET_ID, IF_MATCH] },
    doc: {
      tag: "pets",
      summary: "Change a pet (JSON Merge Patch)",
      description:
        "RFC 7396: the fields sent replace the pet's, the others stay. Any status may change to any other, " +
        "except while the pet has an open order (409 pet_has_open_order; its name and category may still change). " +
        "A patch that changes nothing answers 200 with the pet as it is: the same ETag, no new revision, no event " +
        "(If-Match still applies). An empty patch {} is refused (400 invalid_body).",
      success: { status: 200, description: "The whole pet, as updated.", schema: schemaRef("Pet"), headers: ["ETag"] },
      errors: ["InvalidParameter", "NotFound", "PreconditionFailed", "PetHasOpenOrder"],
    },
  },
  {
    operationId: "deletePet",
    method: "DELETE",
    path: "/pets/{petId}",
    access: "key",
    stability: "stable",
    request: { parameters: [PET_ID, IF_MATCH] },
    doc: {
      tag: "pets",
      summary: "Delete a pet",
      description: "The pet is gone from every listing and from GET; its id is never given to another pet.",
      success: { status: 204, description: "Deleted." },
      errors: ["InvalidParameter", "NotFound", "PreconditionFailed", "PetHasOpenOrder"],
    },
  },
  ...STORE_ROUTES,
  EVENTS_ROUTE,
  {
    operationId: "createEventTicket",
    method: "POST",
    path: "/events/tickets",
    access: "key",
    stability: "stable",
    doc: {
      tag: "meta",
      summary: "A short-lived ticket to open the event stream from a browser",
      description:
        `A browser's EventSource cannot send Authorization: open \`GET /events?ticket=<ticket>\` instead. The ticket opens one event stream ` +
        `of this key, once, within ${EVENT_TICKET_TTL_SECONDS} s: the first request that presents it spends it, whatever its answer (reconnect with a new ticket and lastEventId). ` +
        `The stream ends, as the ticket stops working, when the secret it was asked with does (revoked, expired, rotated past its grace) or the key is banned. No body: one sent is a 400.`,
      errors: ["InvalidBody"],
      success: {
        status: 200,
        description: "The ticket.",
        schema: {
          type: "object",
          properties: {
            ticket: { type: "string", maxLength: 120, pattern: EVENT_TICKET_PATTERN },
            expiresAt: { type: "string", format: "date-time", maxLength: 40, description: "When it stops opening streams." },
          },
          required: ["ticket", "expiresAt"],
          additionalProperties: false,
        },
      },
    },
  },
  {
    operationId: "listKeys",
    method: "GET",
    path: "/keys",
    access: "admin",
    stability: "stable",
    doc: {
      tag: "keys",
      summary: "List every API key (admin)",
      description: "Without secrets or hashes.",
      success: { status: 200, description: "Every key.", schema: { type: "array", maxItems: MAX_KEYS, items: schemaRef("KeyView") } },
    },
  },
  {
    operationId: "createKey",
    method: "POST",
    path: "/keys",
    access: "admin",
    stability: "stable",
    request: { body: "NewKey", parameters: [IDEMPOTENCY_KEY] },
    doc: {
      tag: "keys",
      summary: "Create an API key (admin)",
      description:
        "The secret is in this response and nowhere else. With an Idempotency-Key, a retry by the same caller " +
        "gets the same key and secret again (stored encrypted under the caller's own key) instead of a second key.",
      success: {
        status: 201,
        description: "The key, with its secret.",
        schema: schemaRef("CreatedKey"),
        headers: ["Location", "Idempotent-Replayed"],
      },
      errors: [...IDEMPOTENCY_ERRORS, "TooManyKeys"],
    },
  },
  {
    operationId: "revokeKey",
    method: "DELETE",
    path: "/keys/{id}",
    access: "admin",
    stability: "stable",
    request: { parameters: [KEY_ID] },
    doc: {
      tag: "keys",
      summary: "Revoke an API key (admin)",
      description: "The key is refused from the next request on.",
      success: { status: 204, description: "Revoked." },
      errors: ["NotFound"],
    },
  },
  {
    operationId: "rotateKey",
    method: "POST",
    path: "/keys/{id}/rotate",
    access: "admin",
    stability: "stable",
    request: { body: "RotateKey", parameters: [KEY_ID] },
    doc: {
      tag: "keys",
      summary: "Rotate an API key's secret (admin)",
      description:
        "A new secret for the same key id, plan and counters, in this response and nowhere else. The old secret " +
        "keeps working for graceSeconds (on every instance), then gets 401.",
      success: { status: 200, description: "The key, with its new secret.", schema: schemaRef("CreatedKey") },
      errors: ["NotFound"],
    },
  },
  {
    operationId: "takeBackup",
    method: "POST",
    path: "/admin/backup",
    access: "admin",
    stability: "stable",
    doc: {
      tag: "meta",
      summary: "A consistent copy of the whole store (admin)",
      description:
        "Pets, keys with their hashes, orders, idempotency records and id counters, in the db file's form, taken " +
        "between two group commits (or in one REPEATABLE READ transaction over PostgreSQL) while requests go on. " +
        "`petstore db backup <file>` saves it; `petstore serve --db <file>` opens the file as is. It holds key hashes: keep it private.",
      success: { status: 200, description: "The store, as a db file.", schema: { type: "object" } },
    },
  },
  {
    operationId: "getCurrentKey",
    method: "GET",
    path: "/keys/current",
    access: "key",
    stability: "stable",
    doc: {
      tag: "keys",
      summary: "The calling key, its usage and the server's version",
      description:
        "Any valid key may read its own record and what is left of its minute and day windows. " +
        "The request is counted like any other (the one gate that authenticates also counts, so no route " +
        "lets a key be tried for free); the usage is read after that count, so it includes this request.",
      success: {
        status: 200,
        description: "The key (as in listKeys), its usage, and the server's package version.",
        schema: {
          type: "object",
          properties: {
            key: schemaRef("KeyView"),
            usage: {
              type: "object",
              properties: {
                minute: USAGE_WINDOW,
                day: USAGE_WINDOW,
                bannedUntil: { ...INSTANT, type: ["string", "null"], description: "Set while the key is banned." },
              },
              required: ["minute", "day", "bannedUntil"],
              additionalProperties: false,
            },
            server: {
              type: "object",
              properties: { version: { type: "string", maxLength: 64, pattern: "^\\d+\\.\\d+\\.\\d+" } },
              required: ["version"],
              additionalProperties: false,
            },
          },
          required: ["key", "usage", "server"],
          additionalProperties: false,
        },
      },
    },
  },
  {
    operationId: "getOpenApi",
    method: "GET",
    path: "/openapi.json",
    access: "public",
    stability: "stable",
    doc: {
      tag: "meta",
      summary: "This document",
      description: "Served without a key; still counted against the caller's rate limit.",
      success: {
        status: 200,
        description: "The OpenAPI 3.1 document.",
        schema: {
          type: "object",
          properties: { openapi: { type: "string", maxLength: 16, pattern: "^3\\.1\\." }, info: { type: "object" }, paths: { type: "object" } },
          required: ["openapi", "info", "paths"],
        },
      },
    },
  },
] as const satisfies readonly RouteEntry[];

export type OperationId = (typeof ROUTES)[number]["operationId"];

/** One router path and the operations on it, with what the guard needs for any method on it. */
export interface PathRoutes {
  /** `/v1/pets/:petId`: h3's syntax, prefix included. */
  routerPath: string;
  /** `/pets/{petId}`: the document's. */
  path: string;
  operations: Partial<Record<Method, RouteEntry>>;
  /** The Allow header: the methods, with HEAD wherever GET is. */
  allow: string[];
  /** For a method the path does not have (405): every operation is public. */
  public: boolean;
  /** For a 405 too: set when every operation on the path is deprecated, RFC 9745 deprecating the resource. */
  deprecated?: Deprecation;
  unlimited: boolean;
  /** Static files (the /docs page) that set their own Cache-Control: the guard leaves it to them. */
  ownCaching?: boolean;
}

/** The routes grouped by path, in table order. */
export function groupByPath(routes: readonly RouteEntry[] = ROUTES): PathRoutes[] {
  const groups = new Map<string, RouteEntry[]>();
  for (const route of routes) groups.set(route.path, [...(groups.get(route.path) ?? []), route]);
  return [...groups.values()].map((entries) => {
    const first = entries[0]!;
    const allDeprecated = entries.every((entry) => entry.deprecated !== undefined);
    return {
      routerPath: `${first.outsideApi ? "" : API_PREFIX}${first.path.replace(/\{(\w+)\}/g, ":$1")}`,
      path: first.path,
      operations: Object.fromEntries(entries.map((entry) => [entry.method, entry])),
      allow: allowedMethods(entries.map((entry) => entry.method)),
      public: entries.every((entry) => entry.access === "public"),
      ...(allDeprecated ? { deprecated: first.deprecated } : {}),
      unlimited: entries.every((entry) => entry.unlimited === true),
    };
  });
}

/** The query parameters an operation accepts, e.g. ["limit", "status", "cursor"]: any other is a 400. */
export function queryParameters(operationId: OperationId): string[] {
  const route: RouteEntry | undefined = ROUTES.find((entry) => entry.operationId === operationId);
  const parameters: readonly Parameter[] = route?.request?.parameters ?? [];
  return parameters.filter((parameter) => parameter.in === "query").map((parameter) => parameter.name);
}

/** The Allow header for a path's methods: HEAD is served wherever GET is. */
export function allowedMethods(methods: readonly string[]): string[] {
  const allowed = methods.map((method) => method.toUpperCase());
  if (allowed.includes("GET")) allowed.splice(allowed.indexOf("GET") + 1, 0, "HEAD");
  return allowed;
}

/**
 * Every error an operation can answer: its own, then what its request body, its access and the
 * guard add (401 without a valid key, 403 without an admin key, 429, and 500 and 503 anywhere).
 */
export function answers(route: RouteEntry): ErrorResponseName[] {
  const own = route.doc?.errors ?? [];
  // A document has one response per status: a 400 that can be either is described as one.
  const bodyAnd400 = route.request?.body && own.includes("InvalidParameter");
  return [
    ...(bodyAnd400 ? own.map((name) => (name === "InvalidParameter" ? "InvalidParameterOrBody" : name)) : own),
    ...(route.request?.body ? ([...(bodyAnd400 ? [] : ["InvalidBody" as const]), "PayloadTooLarge", "UnsupportedMediaType"] as const) : []),
    ...(route.access === "admin" ? (["Forbidden"] as const) : []),
    ...(route.access === "public" ? [] : (["Unauthorized"] as const)),
    ...(route.outsideApi ? [] : (["NotAcceptable"] as const)),
    "TooManyRequests",
    "InternalError",
    "StorageUnavailable",
  ];
}
