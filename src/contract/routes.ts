// Every operation of the server once, gathered from each tag's table under operations/: the router
// registers these, the guard reads who may call each and which headers mark it, the server
// validates each request's parameters with them, and the OpenAPI document is generated from them.
// A new operation is one entry in its tag's table, one handler in its tag's module under
// src/server/routes/, and its tests (CONTRIBUTING.md, "Adding an operation").
import { API_PREFIX } from "./constants.js";
import { EVENT_ROUTES } from "./operations/events.js";
import { KEY_ROUTES } from "./operations/keys.js";
import { META_ROUTES } from "./operations/meta.js";
import { PET_ROUTES } from "./operations/pets.js";
import { STORE_ROUTES } from "./operations/store.js";
import { WEBHOOK_ROUTES } from "./operations/webhooks.js";
import type { ErrorResponseName } from "./responses.js";
import type { Deprecation, Method, RouteEntry } from "./route-types.js";

export type * from "./route-types.js";
export { MERGE_PATCH_MEDIA_TYPES } from "./operations/shared.js";

/** The value of `X-API-Stability` on every answer of a beta operation. */
export const BETA_MARKER = "beta";

export const ROUTES = [...PET_ROUTES, ...STORE_ROUTES, ...EVENT_ROUTES, ...KEY_ROUTES, ...WEBHOOK_ROUTES, ...META_ROUTES] as const satisfies readonly RouteEntry[];

export type OperationId = (typeof ROUTES)[number]["operationId"];

/** The route entry of one operation, with its parameters' types: Route<"listPets">. */
export type Route<Id extends OperationId> = Extract<(typeof ROUTES)[number], { operationId: Id }>;

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

/** The Allow header for a path's methods: HEAD is served wherever GET is. */
export function allowedMethods(methods: readonly string[]): string[] {
  const allowed = methods.map((method) => method.toUpperCase());
  if (allowed.includes("GET")) allowed.splice(allowed.indexOf("GET") + 1, 0, "HEAD");
  return allowed;
}

/**
 * Every error an operation can answer: a 400 (every API operation refuses a query parameter it does
 * not take), its own, then what its request body, its access and the guard add (401 without a
 * valid key, 403 without an admin key or the operation's scope, 429, and 500 and 503 anywhere).
 */
export function answers(route: RouteEntry): ErrorResponseName[] {
  const declared = route.doc?.errors ?? [];
  const own = declared.filter((name) => name !== "InvalidParameter" && name !== "InvalidBody");
  const body = route.request?.body !== undefined || declared.includes("InvalidBody");
  // A document has one response per status: a 400 that can be either is described as one.
  const invalid: ErrorResponseName[] = route.outsideApi ? (body ? ["InvalidBody"] : []) : [body ? "InvalidParameterOrBody" : "InvalidParameter"];
  return [
    ...invalid,
    ...own,
    ...(route.request?.body ? (["PayloadTooLarge", "UnsupportedMediaType"] as const) : []),
    ...(route.access === "admin" ? (["Forbidden"] as const) : []),
    ...(route.scope ? (["InsufficientScope"] as const) : []),
    ...(route.access === "public" ? [] : (["Unauthorized"] as const)),
    ...(route.outsideApi ? [] : (["NotAcceptable"] as const)),
    "TooManyRequests",
    "InternalError",
    "StorageUnavailable",
  ];
}
