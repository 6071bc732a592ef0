// The h3 hooks around every request: the request log line, the request metrics, and the end of
// a storage outage. Installed only when one of them is on; each costs about a microsecond.
import type { H3Event } from "h3";
import type { PathRoutes } from "../../contract/routes.js";
import type { OutageLog } from "../logging/outage-log.js";
import type { MetricsObserver } from "../metrics/observer.js";
import type { ServerLogger } from "../request-log.js";
import { requestIdOf } from "../internal/request-id.js";

export interface ObserveDeps {
  logger: ServerLogger;
  metrics?: MetricsObserver;
  outages?: OutageLog;
}

export function wantsObserving(deps: ObserveDeps): boolean {
  return deps.logger.logsRequests || deps.metrics !== undefined || deps.outages !== undefined;
}

/** onRequest and onResponse for H3's config. */
export function observeRequests({ logger, metrics, outages }: ObserveDeps) {
  return {
    onRequest(event: H3Event) {
      event.context.startedAt = performance.now();
    },
    onResponse(response: Response, event: H3Event) {
      const ms = performance.now() - (event.context.startedAt ?? performance.now());
      const { method } = event.req;
      const status = response.status;
      if (logger.logsRequests) logger.request(method, event.url.pathname + event.url.search, status, ms, requestIdOf(event));
      metrics?.request(routeOf(event), method, status, ms / 1000);
      if (outages?.active && status < 500) outages.succeeded(isWrite(method));
    },
  };
}

/** The route template, bounded by the route table: a label value per route, never per URL. */
export function routeOf(event: H3Event): string {
  return (event.context.matchedRoute?.meta as PathRoutes | undefined)?.routerPath ?? "unmatched";
}

export const isWrite = (method: string) => method !== "GET" && method !== "HEAD";
