// How a decided fault meets the request, at the listener (before the app): a reset must cut the
// connection before any byte of an answer, which only the socket can do.
import type { IncomingMessage, ServerResponse } from "node:http";
import { SECURITY_HEADERS_OBJECT } from "../internal/security-headers.js";
import type { ChaosDecision } from "./chaos-control.js";

const REASON = { 429: "Too Many Requests", 500: "Internal Server Error", 503: "Service Unavailable" } as const;

/** Waits the latency, then resets, answers the error status, or hands the request on (`proceed`). */
export function injectFault(decision: ChaosDecision, req: IncomingMessage, res: ServerResponse, proceed: () => void): void {
  const act = () => {
    if (decision.reset) req.socket.resetAndDestroy();
    else if (decision.status !== undefined) answerInjected(res, decision.status);
    else proceed();
  };
  if (decision.latencyMs > 0) setTimeout(act, decision.latencyMs);
  else act();
}

function answerInjected(res: ServerResponse, status: 429 | 500 | 503): void {
  const body = JSON.stringify({ code: "injected_fault", message: `a fault injected on purpose (serve --chaos): ${status} ${REASON[status]}`, status });
  const headers: Record<string, string> = { "content-type": "application/json", ...SECURITY_HEADERS_OBJECT };
  // What a client is meant to honour on these two: retry, after this long.
  if (status === 429 || status === 503) headers["retry-after"] = "1";
  res.writeHead(status, REASON[status], headers);
  res.end(body);
}
