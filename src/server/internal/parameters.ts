// The one place a request's path, query and header parameters are read and validated, with the
// zod schemas its route entry declares (src/contract/parameters.ts): a handler receives them as
// values, or the request is answered 400 invalid_parameter naming the parameter and its rule.
// Every API operation refuses a query parameter it does not declare, or one given twice, so a
// typo such as `?stauts=sold` is never silently ignored. The probes and /metrics, outside the
// API, take any query string: what load balancers and scrapers add is not ours to judge.
import type { H3Event } from "h3";
import type * as z from "zod";
import type { InputOf, ParameterShape, RouteEntry } from "../../contract/route-types.js";
import { safeEcho } from "../../support/safe-echo.js";
import { invalidParameter } from "../errors.js";
import { anyRequestHeader } from "./request-header.js";

type Values = Record<string, unknown>;
type Declared = ReadonlyArray<readonly [name: string, schema: z.ZodType]>;

/** Reads one operation's parameters; made once per operation, when routes are registered. */
export interface ParameterReader<R> {
  /** All of them: path, then query, then headers (those already read may be passed in). */
  read(event: H3Event, headers?: InputOf<R>["headers"]): InputOf<R>;
  /** The header parameters alone: what a kept answer still depends on (see KeptFirst). */
  readHeaders(event: H3Event): InputOf<R>["headers"];
}

export function parameterReader<R extends RouteEntry>(route: R): ParameterReader<R> {
  const path = declared(route.request?.path);
  const query = declared(route.request?.query);
  const headers = declared(route.request?.headers).map(([name, schema]) => [name, schema, name.toLowerCase()] as const);
  const known = query.map(([name]) => name);
  const unknownRule = `is not a known query parameter (${known.length === 0 ? "this operation takes none" : `known: ${known.join(", ")}`})`;
  const readHeaders = (event: H3Event): Values => {
    const values: Values = {};
    for (const [name, schema, lower] of headers) {
      const raw = anyRequestHeader(event, lower);
      if (raw !== null) values[name] = parse(name, schema, raw);
    }
    return values;
  };
  const readQuery = (url: URL): Values => {
    // No query string (most requests): nothing to look at.
    if (url.search.length <= 1 || route.outsideApi) return {};
    const sent = new Map<string, string>();
    for (const [name, value] of url.searchParams) {
      if (!known.includes(name)) throw invalidParameter(safeEcho(name), unknownRule);
      if (sent.has(name)) throw invalidParameter(name, "must be given at most once");
      sent.set(name, value);
    }
    const values: Values = {};
    for (const [name, schema] of query) {
      const raw = sent.get(name);
      if (raw !== undefined) values[name] = parse(name, schema, raw);
    }
    return values;
  };
  return {
    read: (event, readAlready) => {
      const values: Values = {};
      for (const [name, schema] of path) values[name] = parse(name, schema, event.context.params?.[name] ?? "");
      const input = { path: values, query: readQuery(event.url), headers: readAlready ?? readHeaders(event) };
      return input as InputOf<R>;
    },
    readHeaders: readHeaders as (event: H3Event) => InputOf<R>["headers"],
  };
}

function declared(shape: ParameterShape | undefined): Declared {
  return shape === undefined ? [] : Object.entries(shape);
}

function parse(name: string, schema: z.ZodType, raw: string): unknown {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw invalidParameter(name, parsed.error.issues[0]?.message ?? "is not valid");
}
