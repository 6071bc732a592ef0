import type { Server } from "node:http";
import { DEFAULT_DEADLINES, MAX_HEADER_BYTES, type HttpDeadlines } from "../../contract/limits.js";

/** What a server applies to each request: its deadlines and the size of its head. */
export interface HttpLimits extends HttpDeadlines {
  maxHeaderBytes: number;
}

export const DEFAULT_LIMITS: Readonly<HttpLimits> = { ...DEFAULT_DEADLINES, maxHeaderBytes: MAX_HEADER_BYTES };

type TrackedServer = Server & { connectionsCheckingInterval: number; maxHeaderSize: number | undefined };

/**
 * Applies the limits to a server listhen created (it takes no server options). Node reads
 * `maxHeaderSize` from the server object for every new connection's parser, so setting it here
 * is what `http.createServer({ maxHeaderSize })` would have done; the 431 message quotes the same number.
 */
export function applyLimits(server: Server, limits: HttpLimits): void {
  (server as TrackedServer).maxHeaderSize = limits.maxHeaderBytes;
  server.headersTimeout = limits.headersMs;
  server.requestTimeout = limits.requestMs;
  server.keepAliveTimeout = limits.keepAliveMs;
  server.maxHeadersCount = 100;
  checkDeadlinesOften(server as TrackedServer, limits);
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
