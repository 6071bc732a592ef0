import type { EventHandler, H3, H3Event } from "h3";
import { groupByPath, type Method, type PathRoutes, type RouteEntry } from "../../contract/routes.js";
import { methodNotAllowed } from "../errors.js";

/** A handler per operationId: the server's half of the route table. */
export type Handlers<Id extends string = string> = Record<Id, (event: H3Event) => unknown>;

/**
 * Registers every path of the table with one handler that picks the operation by method.
 * Another method gets 405 with `Allow` (h3 alone would answer 404); HEAD is served wherever GET
 * is. The guard finds the path's entries in the matched route's meta.
 */
export function registerRoutes<Id extends string>(
  app: H3,
  routes: ReadonlyArray<RouteEntry & { operationId: Id }>,
  handlers: Handlers<Id>,
): void {
  for (const group of groupByPath(routes)) {
    const handle: Partial<Record<Method, (event: H3Event) => unknown>> = {};
    for (const [method, route] of Object.entries(group.operations)) handle[method as Method] = handlers[route.operationId as Id];
    const handler: EventHandler = (event) => {
      const method = event.req.method === "HEAD" ? "GET" : (event.req.method as Method);
      const operation = handle[method];
      if (!operation) throw methodNotAllowed(event.req.method, group.allow);
      return operation(event);
    };
    app.all(group.routerPath, handler, { meta: { ...group } satisfies PathRoutes });
  }
}
