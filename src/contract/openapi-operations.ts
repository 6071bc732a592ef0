// The paths of the OpenAPI document, generated from the route table: each operation with exactly
// the statuses the server can answer it with, and the headers its route's entry puts on them.
import {
  BETA_HEADERS,
  DEPRECATION_HEADERS,
  type ErrorResponseName,
  errorResponses,
  type HeaderName,
  response,
} from "./openapi-responses.js";
import type * as z from "zod";
import { componentRef } from "./components.js";
import { parameterObjects } from "./openapi-parameters.js";
import { TAGS } from "./tags.js";
import { answers, groupByPath, type JsonSchema, type PathRoutes, type RouteEntry, ROUTES } from "./routes.js";

export const BEARER = "bearerAuth";
/** The same header, with a key that must be an admin's: a scheme of its own, so a reader sees which operations need one. */
export const ADMIN_BEARER = "adminBearerAuth";


const isoDate = (instant: Date) => instant.toISOString().slice(0, 10);

/** The paths object: every documented route, grouped by path in table order. */
export function paths(routes: readonly RouteEntry[] = ROUTES): Record<string, JsonSchema> {
  const documented = routes.filter((route) => route.doc !== undefined);
  return Object.fromEntries(groupByPath(documented).map((group) => [group.path, pathItem(group)]));
}

function pathItem(group: PathRoutes): JsonSchema {
  const allow = group.allow.join(", ");
  const description = [
    "HEAD is served wherever GET is.",
    `Other methods: 405 method_not_allowed with \`Allow: ${allow}\` (#/components/responses/MethodNotAllowed).`,
    // RFC 9745 and RFC 8594 deprecate the resource, so the server marks every answer for it.
    ...(group.deprecated ? ["The path is deprecated: every response for it, 405 included, carries Deprecation, Sunset and Link."] : []),
  ];
  const operations = Object.values(group.operations).map((route) => [route.method.toLowerCase(), operation(route)]);
  return { description: description.join(" "), ...Object.fromEntries(operations) };
}

function operation(route: RouteEntry): JsonSchema {
  const doc = route.doc!;
  const marks: HeaderName[] = [...(route.deprecated ? DEPRECATION_HEADERS : []), ...(route.stability === "beta" ? BETA_HEADERS : [])];
  const { success } = doc;
  return {
    operationId: route.operationId,
    tags: [TAGS[doc.tag].name],
    summary: doc.summary,
    description: [deprecationText(route), doc.description, scopeText(route)].filter(Boolean).join(" "),
    ...(route.deprecated ? { deprecated: true, "x-sunset": isoDate(new Date(route.deprecated.sunset)) } : {}),
    // x-stability-level is the name Redocly, Stoplight and Zalando's guidelines read.
    ...(route.stability === "beta" ? { "x-stability-level": "beta" } : {}),
    security: security(route),
    ...parameters(route),
    ...(route.request?.body ? { requestBody: requestBody(route.request.body, route.request.mediaTypes ?? ["application/json"]) } : {}),
    responses: {
      [String(success.status)]: withMediaType(response(success.description, success.schema, [...(success.headers ?? []), ...marks]), success.mediaType),
      ...(success.notModified ? { "304": response("Not modified: If-None-Match names the current ETag. No body.", undefined, ["ETag", ...marks]) } : {}),
      ...errorResponses(answers(route) satisfies ErrorResponseName[], marks),
    },
  };
}

/**
 * Who may call it: no key, an admin key, or a key with the operation's scope, which OpenAPI 3.1
 * lets a security requirement name for a scheme other than OAuth (the roles it needs).
 */
function security(route: RouteEntry): JsonSchema[] {
  if (route.access === "public") return [];
  if (route.access === "admin") return [{ [ADMIN_BEARER]: [] }];
  return [{ [BEARER]: route.scope ? [route.scope] : [] }];
}

/** The scope in words, at the end of the description: what the security requirement says. */
function scopeText(route: RouteEntry): string {
  if (route.access !== "key") return "";
  if (!route.scope) return "Any valid key may call it, whatever its scopes.";
  return `Needs a key with the \`${route.scope}\` scope (403 \`insufficient_scope\` without it); admin keys hold every scope.`;
}

/** The success body under its own media type (text/event-stream) instead of application/json. */
function withMediaType(answer: JsonSchema, mediaType: string | undefined): JsonSchema {
  const content = answer.content as Record<string, unknown> | undefined;
  if (!mediaType || !content) return answer;
  return { ...answer, content: { [mediaType]: content["application/json"] } };
}

function parameters(route: RouteEntry): { parameters?: JsonSchema[] } {
  const objects = parameterObjects(route.request);
  return objects.length === 0 ? {} : { parameters: objects };
}

function requestBody(schema: z.ZodType, mediaTypes: readonly string[]): JsonSchema {
  const content = Object.fromEntries(mediaTypes.map((type) => [type, { schema: componentRef(schema) }]));
  return { required: true, content };
}

function deprecationText(route: RouteEntry): string {
  const deprecation = route.deprecated;
  if (!deprecation) return "";
  const since = isoDate(new Date(deprecation.since * 1000));
  const sunset = isoDate(new Date(deprecation.sunset));
  return (
    `Deprecated since ${since}; removed on ${sunset} (Sunset: ${deprecation.sunset}). ` +
    `Use ${deprecation.successorText} instead. Every response carries Deprecation, Sunset and Link.`
  );
}
