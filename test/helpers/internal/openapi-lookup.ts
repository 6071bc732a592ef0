// Finds, in the OpenAPI document, what a response to a request must look like: the operation's
// response for its status, or one of the document's routing rules for requests outside every operation.
import { buildOpenApiDocument } from "../../../src/contract/openapi.js";
import { allowedMethods } from "../../../src/contract/routes.js";
import { DEPRECATION_HEADERS, wireName } from "../../../src/contract/openapi-responses.js";
import { API_PREFIX, HEALTH_PATH } from "../../../src/contract/values.js";

export type Json = Record<string, unknown>;

/** A response object of the document, and the JSON pointer it lives at (for the schema validator). */
export interface Expected {
  /** e.g. `listPets 200`, `unknown path 404` */
  label: string;
  response: Json;
  pointer: string;
}

export type Target =
  | { kind: "operation"; label: string; operation: Json; pointer: string }
  | { kind: "routing"; label: string; statuses: Record<number, string>; allow?: string[]; deprecated?: boolean }
  | { kind: "health" };

export const document = buildOpenApiDocument();
const paths = document.paths as Record<string, Json>;
const METHODS = ["get", "put", "post", "delete", "patch"];

/** What the request hit: an operation, a listed path with another method, an unlisted path, or /healthz. */
export function findTarget(method: string, pathTemplateOrUrl: string): Target {
  const location = toApiPath(pathTemplateOrUrl);
  if (location.outside) return location.pathname === HEALTH_PATH ? { kind: "health" } : unknownPath(false);
  const template = matchTemplate(location.pathname);
  if (template === undefined) return unknownPath(true);
  const item = paths[template]!;
  const verb = method.toLowerCase() === "head" ? "get" : method.toLowerCase();
  const operation = item[verb] as Json | undefined;
  if (operation) {
    const label = `${String(operation.operationId)} (${method.toUpperCase()} ${template})`;
    return { kind: "operation", label, operation, pointer: `/paths/${escape(template)}/${verb}` };
  }
  const operations = METHODS.filter((name) => item[name]).map((name) => item[name] as Json);
  const isPublic = operations.every((op) => Array.isArray(op.security) && op.security.length === 0);
  return {
    kind: "routing",
    label: `another method on ${template}`,
    statuses: routingStatuses(405, "MethodNotAllowed", !isPublic),
    allow: allowedMethods(METHODS.filter((name) => item[name])),
    deprecated: operations.every((op) => op.deprecated === true),
  };
}

/** The response the document declares for this status, or undefined when it declares none. */
export function expectedResponse(target: Exclude<Target, { kind: "health" }>, status: number): Expected | undefined {
  if (target.kind === "routing") {
    const name = target.statuses[status];
    if (name === undefined) return undefined;
    const expected = componentResponse(`${target.label} ${status}`, name);
    return target.deprecated ? withDeprecationHeaders(expected) : expected;
  }
  const responses = target.operation.responses as Record<string, Json>;
  const response = responses[String(status)];
  if (!response) return undefined;
  const label = `${target.label} ${status}`;
  if (typeof response.$ref === "string") return componentResponse(label, response.$ref.split("/").pop()!);
  return { label, response, pointer: `${target.pointer}/responses/${status}` };
}

export function declaredStatuses(target: Exclude<Target, { kind: "health" }>): string[] {
  return Object.keys(target.kind === "routing" ? target.statuses : (target.operation.responses as Json));
}

/** Resolves `#/components/...` references inside the document. */
export function resolve(value: Json): Json {
  if (typeof value.$ref !== "string") return value;
  let node: unknown = document;
  for (const part of value.$ref.slice(2).split("/")) node = (node as Json)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  return node as Json;
}

/** Escapes one JSON-pointer segment, and percent-encodes it for use in a URI fragment. */
export function escape(segment: string): string {
  return encodeURIComponent(segment.replace(/~/g, "~0").replace(/\//g, "~1"));
}

function componentResponse(label: string, name: string): Expected {
  const response = (document.components as Record<string, Record<string, Json>>).responses![name]!;
  return { label, response, pointer: `/components/responses/${name}` };
}

/** A deprecated path marks every answer (the path item's description says so), routing errors too. */
function withDeprecationHeaders(expected: Expected): Expected {
  const headers = { ...(expected.response.headers as Json) };
  for (const name of DEPRECATION_HEADERS) headers[wireName(name)] = { $ref: `#/components/headers/${name}` };
  return { ...expected, response: { ...expected.response, headers } };
}

function unknownPath(underApi: boolean): Target {
  // The guard asks for a key before routing, so an unlisted path under /v1 can be a 401 first.
  return { kind: "routing", label: "an unlisted path", statuses: routingStatuses(404, "NotFound", underApi) };
}

/** The answers outside every operation: the routing error, 401 where a key is asked for, and the guard's 429 and 500. */
function routingStatuses(status: number, name: string, needsKey: boolean): Record<number, string> {
  const statuses: Record<number, string> = { [status]: name, 429: "TooManyRequests", 500: "InternalError" };
  if (needsKey) statuses[401] = "Unauthorized";
  return statuses;
}

/** An absolute URL is taken as is; a bare path (`/pets?limit=1`, `/pets/{petId}`) is under the API prefix. */
function toApiPath(pathTemplateOrUrl: string): { pathname: string; outside: boolean } {
  if (!/^https?:\/\//.test(pathTemplateOrUrl)) return { pathname: pathTemplateOrUrl.split("?")[0]!, outside: false };
  const { pathname } = new URL(pathTemplateOrUrl);
  const inside = pathname === API_PREFIX || pathname.startsWith(`${API_PREFIX}/`);
  return inside ? { pathname: pathname.slice(API_PREFIX.length), outside: false } : { pathname, outside: true };
}

function matchTemplate(pathname: string): string | undefined {
  // The router serves /pets/ as /pets.
  const path = pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
  if (paths[path]) return path;
  return Object.keys(paths).find((template) => templateRegExp(template).test(path));
}

function templateRegExp(template: string): RegExp {
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+");
  return new RegExp(`^${pattern}$`);
}
