// The server's half of the route table: each operation's handler, reached through one pipeline
// (the Accept check, its parameters validated, then the handler), registered by path.
import type { EventHandler, H3, H3Event } from "h3";
import { groupByPath, type InputOf, type Method, type PathRoutes, type RouteEntry } from "../../contract/routes.js";
import { methodNotAllowed } from "../errors.js";
import { negotiate, type AnswerType } from "../internal/negotiation.js";
import { parameterReader, type ParameterReader } from "../internal/parameters.js";
import { requestHeader } from "../internal/request-header.js";

/** An operation's handler: it runs with its parameters validated, e.g. `input.query.limit`. */
export type Handler<R> = ((event: H3Event, input: InputOf<R>) => unknown) | KeptFirst<R>;

/**
 * A handler that first looks for an answer it kept for this very URL, before any parameter is
 * parsed: only a URL whose parameters were valid was kept, so the same URL needs no second look.
 * The header parameters, which are not part of the URL, are read (and refused) before it looks.
 */
export interface KeptFirst<R> {
  /** The kept answer, or undefined to go on to `handle`. */
  kept(event: H3Event, headers: InputOf<R>["headers"]): unknown;
  handle(event: H3Event, input: InputOf<R>): unknown;
}

/** A handler for each operation of `R`, by operationId: HandlersFor<(typeof PET_ROUTES)[number]>. */
export type HandlersFor<R extends RouteEntry> = { [E in R as E["operationId"]]: Handler<E> };

/**
 * Registers every path of the table with one handler that picks the operation by method.
 * Another method gets 405 with `Allow` (h3 alone would answer 404); HEAD is served wherever GET
 * is. The guard finds the path's entries in the matched route's meta.
 */
export function registerRoutes<R extends RouteEntry>(app: H3, routes: readonly R[], handlers: HandlersFor<R>): void {
  const byId = handlers as unknown as Record<string, Handler<RouteEntry>>;
  for (const group of groupsOf(routes)) {
    const handle: Partial<Record<Method, (event: H3Event) => unknown>> = {};
    for (const [method, route] of Object.entries(group.operations)) handle[method as Method] = pipeline(route, byId[route.operationId]!);
    const handler: EventHandler = (event) => {
      const method = event.req.method === "HEAD" ? "GET" : (event.req.method as Method);
      const operation = handle[method];
      if (!operation) throw methodNotAllowed(event.req.method, group.allow);
      return operation(event);
    };
    app.all(group.routerPath, handler, { meta: { ...group } satisfies PathRoutes });
  }
}

/**
 * One operation: a 406 for an Accept that rules its answer out (API operations only: a probe's
 * or a scraper's Accept is not ours to judge), its parameters, then its handler.
 */
function pipeline(route: RouteEntry, handler: Handler<RouteEntry>): (event: H3Event) => unknown {
  const parameters = readerOf(route);
  const answer = route.outsideApi ? undefined : ((route.doc?.success.mediaType ?? "application/json") as AnswerType);
  const accept = answer === undefined ? () => undefined : (event: H3Event) => negotiate(requestHeader(event, "accept"), answer);
  if (typeof handler === "function") {
    return (event) => {
      accept(event);
      return handler(event, parameters.read(event));
    };
  }
  return (event) => {
    accept(event);
    const headers = parameters.readHeaders(event);
    const kept = handler.kept(event, headers);
    return kept !== undefined ? kept : handler.handle(event, parameters.read(event, headers));
  };
}

// The route tables are constants: a server that builds many apps (a throwaway server builds one
// per reset) groups them and makes their parameter readers once, not once per app.
const groups = new WeakMap<readonly RouteEntry[], PathRoutes[]>();
const readers = new WeakMap<RouteEntry, ParameterReader<RouteEntry>>();

function groupsOf(routes: readonly RouteEntry[]): PathRoutes[] {
  let grouped = groups.get(routes);
  if (!grouped) groups.set(routes, (grouped = groupByPath(routes)));
  return grouped;
}

function readerOf(route: RouteEntry): ParameterReader<RouteEntry> {
  let reader = readers.get(route);
  if (!reader) readers.set(route, (reader = parameterReader(route)));
  return reader;
}
