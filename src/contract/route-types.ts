// What a route entry says (src/contract/routes.ts and the tables under operations/), and what its
// parameters parse to. Types only, so each tag's table and the document's builders can import them
// without importing the table that gathers them.
import type * as z from "zod";
import type { ErrorResponseName, HeaderName } from "./responses.js";
import type { Scope } from "./scopes.js";
import type { Tag } from "./tags.js";

export type JsonSchema = Record<string, unknown>;
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

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

/**
 * Parameters of one kind by name, each a zod schema from parameters.ts that takes the text as
 * sent and gives the value, with `.describe()` for the document. Their order is the document's.
 */
export type ParameterShape = Readonly<Record<string, z.ZodType>>;

export interface RouteRequest {
  path?: ParameterShape;
  query?: ParameterShape;
  /** By their name in the document (`If-Match`); read case-insensitively. */
  headers?: ParameterShape;
  /** The body's schema, a registered component (components.ts), sent as one of `mediaTypes` (application/json when absent). */
  body?: z.ZodType;
  mediaTypes?: readonly string[];
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
  tag: Tag;
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
  /** Outside the API prefix and out of the document (GET /healthz); it takes any query string. */
  outsideApi?: boolean;
  access: Access;
  /**
   * The scope a key needs for an operation any key may call (403 insufficient_scope without it);
   * absent there, any valid key may (getCurrentKey). Admin keys hold every scope.
   */
  scope?: Scope;
  /** Not counted against any rate limit, and without rate-limit headers. */
  unlimited?: boolean;
  stability: "stable" | "beta";
  deprecated?: Deprecation;
  request?: RouteRequest;
  /** Absent: not an API operation, not in the document. */
  doc?: OperationDoc;
  /** Also opened by `?ticket=` from createEventTicket, for a browser's EventSource (it cannot send Authorization). */
  ticket?: true;
}

type Parsed<S> = { -readonly [K in keyof S]: S[K] extends z.ZodType ? z.output<S[K]> : never };
type ShapeOf<R, K extends keyof RouteRequest> = R extends { request: { [P in K]: infer S } } ? S : Record<never, never>;

/**
 * An operation's parameters as its handler receives them, validated: path parameters always
 * there, query and header parameters when sent, e.g. InputOf<listPets>["query"]["limit"]: number | undefined.
 */
export interface InputOf<R> {
  path: Parsed<ShapeOf<R, "path">>;
  query: Partial<Parsed<ShapeOf<R, "query">>>;
  headers: Partial<Parsed<ShapeOf<R, "headers">>>;
}
