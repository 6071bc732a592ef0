import type { EventHandler, H3, H3Event } from "h3";
import { methodNotAllowed } from "../errors.js";
import type { RouteMeta } from "../middleware/guard.js";

type Method = "GET" | "POST" | "DELETE";
export type MethodHandlers = Partial<Record<Method, (event: H3Event) => unknown>>;

/**
 * Registers one path with a handler per method. Another method gets 405 with `Allow`
 * (h3 alone would answer 404); HEAD is served wherever GET is.
 */
export function route(app: H3, path: string, handlers: MethodHandlers, meta: RouteMeta = {}): void {
  const allowed = Object.keys(handlers).flatMap((method) => (method === "GET" ? ["GET", "HEAD"] : [method]));
  const handler: EventHandler = (event) => {
    const method = event.req.method === "HEAD" ? "GET" : (event.req.method as Method);
    const handle = handlers[method];
    if (!handle) throw methodNotAllowed(event.req.method, allowed);
    return handle(event);
  };
  app.all(path, handler, { meta: { ...meta } });
}
