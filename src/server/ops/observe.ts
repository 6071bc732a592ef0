// What every request tells the operator: the request log line (h3's hooks, only when requests are
// logged), and the request metrics and the end of a storage outage (around the guard). h3's
// hooks chain onResponse through promises, a cost on every request; a wrapper around the guard,
// the one middleware every request passes, costs a fraction of that.
// `performance` is imported: the global one is a lazy accessor, and reading it costs each request
// an inline-cache miss and a getter call.
import { performance } from "node:perf_hooks";
import type { H3Event, Middleware } from "h3";
import { HEALTH_PATH, READY_PATH } from "../../contract/constants.js";
import type { PathRoutes } from "../../contract/routes.js";
import { StorageUnavailableError } from "../../support/storage-unavailable.js";
import type { OutageLog } from "../logging/outage-log.js";
import type { MetricsObserver } from "../metrics/observer.js";
import type { ServerLogger } from "../request-log.js";
import { requestIdOf } from "../internal/request-id.js";
import { isPending } from "../../support/maybe-async.js";

/**
 * onRequest and onResponse for H3's config: the request log line. A probe that passes is not
 * logged: a load balancer asks every few seconds, and those lines would bury the requests; a
 * probe that fails is.
 */
export function logRequests(logger: ServerLogger) {
  return {
    onRequest(event: H3Event) {
      event.context.startedAt = performance.now();
    },
    onResponse(response: Response, event: H3Event) {
      const path = event.url.pathname;
      if (response.status < 400 && (path === HEALTH_PATH || path === READY_PATH)) return;
      const ms = performance.now() - (event.context.startedAt ?? performance.now());
      logger.request(event.req.method, path + event.url.search, response.status, ms, requestIdOf(event));
    },
  };
}

export interface ObserveDeps {
  metrics?: MetricsObserver;
  outages?: OutageLog;
}

/**
 * The guard, timed and counted: the duration runs from routing to the handler's result (the
 * response body is serialised after). A request that passed the guard without an error proves
 * the engines it used are back, which ends an outage (see OutageLog).
 */
export function observeGuard(guard: Middleware, deps: ObserveDeps): Middleware {
  if (!deps.metrics && !deps.outages) return guard;
  return (event, next) => {
    // Only metrics time the request; a closure per outcome is made only when it is awaited.
    const started = deps.metrics ? performance.now() : 0;
    let result: unknown;
    try {
      result = guard(event, next);
    } catch (error) {
      return failed(event, deps, started, error);
    }
    // As the guard: synchronous when it was.
    if (!isPending(result)) return served(event, deps, started, result);
    return result.then(
      (answer) => served(event, deps, started, answer),
      (error: unknown) => failed(event, deps, started, error),
    );
  };
}

function served(event: H3Event, { metrics, outages }: ObserveDeps, started: number, result: unknown): unknown {
  const status = statusOfResult(result, event);
  metrics?.request(routeOf(event), event.req.method, status, (performance.now() - started) / 1000);
  if (outages?.active && status < 500 && !isUnlimited(event)) outages.succeeded(isWrite(event.req.method));
  return result;
}

function failed(event: H3Event, { metrics }: ObserveDeps, started: number, error: unknown): never {
  metrics?.request(routeOf(event), event.req.method, statusOfError(error), (performance.now() - started) / 1000);
  throw error;
}

/** The route template, bounded by the route table: a label value per route, never per URL. */
export function routeOf(event: H3Event): string {
  return (event.context.matchedRoute?.meta as PathRoutes | undefined)?.routerPath ?? "unmatched";
}

function isUnlimited(event: H3Event): boolean {
  return (event.context.matchedRoute?.meta as PathRoutes | undefined)?.unlimited === true;
}

/** A Response's own status, h3's not-found marker (a symbol) as 404, else what the handler set. */
function statusOfResult(result: unknown, event: H3Event): number {
  if (result instanceof Response) return result.status;
  return typeof result === "symbol" ? 404 : (event.res.status ?? 200);
}

function statusOfError(error: unknown): number {
  if (error instanceof StorageUnavailableError) return 503;
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : 500;
}

export const isWrite = (method: string) => method !== "GET" && method !== "HEAD";
