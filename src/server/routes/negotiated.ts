// The Accept check in front of every API operation's handler (the probes and /metrics, outside
// the API, answer whatever Accept says: a load balancer's or Prometheus's Accept is not ours to judge).
import type { H3Event } from "h3";
import { ROUTES, type OperationId, type RouteEntry } from "../../contract/routes.js";
import { negotiate, type AnswerType } from "../internal/negotiation.js";
import type { Handlers } from "./register.js";
import { requestHeader } from "../internal/request-header.js";

/** Each API operation's handler, after a 406 for an Accept that rules its answer out. */
export function negotiated(handlers: Handlers<OperationId>): Handlers<OperationId> {
  const wrapped = { ...handlers };
  const routes: readonly RouteEntry[] = ROUTES;
  for (const route of routes) {
    if (route.outsideApi) continue;
    const answer = (route.doc?.success.mediaType ?? "application/json") as AnswerType;
    const id = route.operationId as OperationId;
    const handler = handlers[id];
    wrapped[id] = (event: H3Event) => {
      negotiate(requestHeader(event, "accept"), answer);
      return handler(event);
    };
  }
  return wrapped;
}
