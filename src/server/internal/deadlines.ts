import type { Server } from "node:http";

/** How long a client may take: slow or stalled clients cannot hold a connection open for ever. */
export interface HttpDeadlines {
  /** From the first byte of a request to the end of its headers. */
  headersMs: number;
  /** From the first byte of a request to the end of its body. */
  requestMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveMs: number;
}

export const DEFAULT_DEADLINES: HttpDeadlines = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 };

type TrackedServer = Server & { connectionsCheckingInterval: number };

export function applyDeadlines(server: Server, deadlines: HttpDeadlines): void {
  server.headersTimeout = deadlines.headersMs;
  server.requestTimeout = deadlines.requestMs;
  server.keepAliveTimeout = deadlines.keepAliveMs;
  server.maxHeadersCount = 100;
  checkDeadlinesOften(server as TrackedServer, deadlines);
}

/**
 * Node checks the header and request deadlines on a timer that runs every 30 s by default, so
 * a 10 s deadline could stretch to 40 s. Check every second (more often for shorter deadlines).
 * Node starts that timer on "listening", which listhen has already seen: restart it.
 */
function checkDeadlinesOften(server: TrackedServer, deadlines: HttpDeadlines): void {
  server.connectionsCheckingInterval = Math.max(10, Math.min(1000, Math.floor(deadlines.headersMs / 4)));
  const restart = server.listeners("listening").find((listener) => listener.name === "setupConnectionsTracking");
  restart?.call(server);
}
