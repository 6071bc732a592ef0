// Response headers and responses of the OpenAPI document: what the guard and the error handler
// put on every answer, described once and referenced from each operation.
import { errorCodesFor } from "./errors.js";
import { ERROR_RESPONSES, header, HEADER_COMPONENTS, LINK_MAX_LENGTH, type ErrorResponseName, type ErrorResponseSpec, type HeaderName, type HeaderObject, type MarkHeaderName } from "./responses.js";
import { BETA_MARKER } from "./routes.js";
import type { Deprecation, JsonSchema, RouteEntry } from "./route-types.js";

export type { ErrorResponseName, HeaderName, MarkHeaderName } from "./responses.js";

const schemaRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

const SECURITY_HEADERS: HeaderName[] = ["X-Content-Type-Options", "Cache-Control"];

export const DEPRECATION_HEADERS: HeaderName[] = ["Deprecation", "Sunset", "Link-Successor-Version"];
export const BETA_HEADERS: HeaderName[] = ["X-API-Stability"];

/**
 * components.headers: the fixed ones, and the marks of the routes that have them, each with the
 * exact values the routes' entries give (one value: const; several: enum).
 */
export function headerComponents(routes: readonly RouteEntry[]): Record<string, HeaderObject> {
  const deprecations = routes.flatMap((route) => (route.deprecated ? [route.deprecated] : []));
  const marks: Partial<Record<MarkHeaderName, HeaderObject>> = {};
  if (deprecations.length > 0) Object.assign(marks, deprecationHeaders(deprecations));
  if (routes.some((route) => route.stability === "beta")) {
    marks["X-API-Stability"] = header("This operation is beta: it may still change or go away.", { const: BETA_MARKER });
  }
  return structuredClone({ ...HEADER_COMPONENTS, ...marks });
}

function deprecationHeaders(deprecations: Deprecation[]): Record<MarkHeaderName, HeaderObject> {
  const oneOf = (values: string[]) => {
    const distinct = [...new Set(values)];
    return distinct.length === 1 ? { const: distinct[0] } : { enum: distinct };
  };
  const successors = [...new Set(deprecations.map((deprecation) => deprecation.successor))];
  const escaped = successors.map((path) => path.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&")).join("|");
  return {
    Deprecation: header("RFC 9745: this operation is deprecated since this unix time.", oneOf(deprecations.map((d) => `@${d.since}`))),
    Sunset: header("RFC 8594: this operation is removed at this instant.", oneOf(deprecations.map((d) => d.sunset))),
    "Link-Successor-Version": header(`The replacement: ${[...new Set(deprecations.map((d) => d.successorText))].join("; ")}.`, {
      type: "string",
      maxLength: LINK_MAX_LENGTH,
      pattern: `^<[^>]+${successors.length === 1 ? escaped : `(${escaped})`}>; rel="successor-version"$`,
    }),
  } as Record<MarkHeaderName, HeaderObject>;
}

const RATE_LIMIT_HEADERS: Array<keyof typeof HEADER_COMPONENTS> = [
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "RateLimit-Policy",
  "RateLimit",
];
/** The header's name on the wire: `Link-Next` and `Link-Successor-Version` are both `Link`, `WWW-Authenticate-Scope` is `WWW-Authenticate`. */
export const wireName = (name: HeaderName): string => (name.startsWith("Link-") ? "Link" : name.startsWith("WWW-Authenticate") ? "WWW-Authenticate" : name);

/** A response object whose headers reference components.headers; rate-limit headers always included. */
export function response(
  description: string,
  schema: JsonSchema | undefined,
  headers: HeaderName[] = [],
  rateLimitHeadersOptional = false,
): JsonSchema {
  const reference = (name: HeaderName) => ({ $ref: `#/components/headers/${name}` });
  const optional = (name: keyof typeof HEADER_COMPONENTS) => ({ ...HEADER_COMPONENTS[name], required: false });
  const rateLimit = RATE_LIMIT_HEADERS.map((name) => [wireName(name), rateLimitHeadersOptional ? optional(name) : reference(name)]);
  return {
    description,
    headers: Object.fromEntries([
      ...rateLimit,
      ["X-Request-Id", reference("X-Request-Id")],
      ...SECURITY_HEADERS.map((name) => [name, reference(name)]),
      ["Access-Control-Allow-Origin", reference("Access-Control-Allow-Origin")],
      ...headers.map((name) => [wireName(name), reference(name)]),
    ]),
    ...(schema ? { content: { "application/json": { schema } } } : {}),
  };
}

/** The Error body, narrowed to the codes and the status this response carries. */
export function errorResponse(name: ErrorResponseName, extraHeaders: HeaderName[] = []): JsonSchema {
  const spec: ErrorResponseSpec = ERROR_RESPONSES[name];
  const codes = spec.codes ?? errorCodesFor(spec.status);
  const schema = {
    allOf: [schemaRef("Error"), { type: "object", properties: { code: { enum: codes }, status: { const: spec.status } } }],
  };
  return response(spec.description, schema, [...(spec.headers ?? []), ...extraHeaders], spec.rateLimitHeadersOptional);
}

/** The responses map entries of an operation's errors: references, or inline copies with extra headers. */
export function errorResponses(names: ErrorResponseName[], extraHeaders: HeaderName[] = []): Record<string, JsonSchema> {
  return Object.fromEntries(
    names.map((name) => [
      String(ERROR_RESPONSES[name].status),
      extraHeaders.length === 0 ? { $ref: `#/components/responses/${name}` } : errorResponse(name, extraHeaders),
    ]),
  );
}

/** The answers outside every operation (an unlisted path, another method), which the document's descriptions name. */
const ROUTING_RESPONSES: ErrorResponseName[] = ["NotFound", "MethodNotAllowed", "Unauthorized", "TooManyRequests", "InternalError"];

/** components.responses: those the paths refer to, and the routing ones; no unused component. */
export function componentResponses(paths?: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const all = Object.keys(ERROR_RESPONSES) as ErrorResponseName[];
  const text = paths ? JSON.stringify(paths) : undefined;
  const used = (name: ErrorResponseName) => !text || ROUTING_RESPONSES.includes(name) || text.includes(`"#/components/responses/${name}"`);
  return Object.fromEntries(all.filter(used).map((name) => [name, errorResponse(name)]));
}
