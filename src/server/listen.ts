import { ServerResponse, STATUS_CODES, type IncomingMessage, type OutgoingHttpHeaders, type Server } from "node:http";
import type { H3 } from "h3";
import { toNodeHandler } from "h3/node";
import { listen, type Listener } from "listhen";

export interface HttpListener {
  /** e.g. http://127.0.0.1:3000 */
  origin: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish (at most `graceMs`), then closes. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Listens through listhen on exactly the port asked for: listhen's port finder would
 * otherwise move to another port (or a random one) when the port is taken, which a server
 * that clients and load balancers point at must never do.
 */
export async function listenStrict(app: H3, port: number, host: string): Promise<HttpListener> {
  const listener = await listen(withReasonPhrases(toNodeHandler(app)), {
    // An empty alternative range disables the fallback; the types only know the non-empty form.
    port: { port, random: port === 0, ports: [], alternativePortRange: [] as unknown as [number, number] },
    hostname: host,
    showURL: false,
    autoClose: false,
    open: false,
    clipboard: false,
    qr: false,
    tunnel: false,
    isTest: true, // keeps listhen from printing its own port messages
  }).catch((error: Error) => {
    throw new Error(`cannot listen on ${host}:${port}: ${describeListenError(error)}`);
  });
  if (port !== 0 && listener.address.port !== port) {
    await listener.close();
    throw new Error(`cannot listen on ${host}:${port}: the port is in use`);
  }
  tuneTimeouts(listener.server as Server);
  return {
    origin: originOf(host, listener.address.port),
    port: listener.address.port,
    close: (graceMs = 10_000) => closeGracefully(listener, graceMs),
  };
}

/**
 * srvx passes an empty reason phrase to writeHead, so every status line would read
 * `HTTP/1.1 201 ` in curl; fill in the standard phrase.
 */
function withReasonPhrases(handler: (req: IncomingMessage, res: ServerResponse) => unknown) {
  return (req: IncomingMessage, res: ServerResponse) => {
    res.writeHead = writeHeadWithReason as ServerResponse["writeHead"];
    return handler(req, res);
  };
}

type WriteHead = (this: ServerResponse, status: number, reason: string, headers?: OutgoingHttpHeaders) => ServerResponse;
const originalWriteHead = ServerResponse.prototype.writeHead as WriteHead;

function writeHeadWithReason(this: ServerResponse, status: number, reason?: string, headers?: OutgoingHttpHeaders) {
  return originalWriteHead.call(this, status, reason || STATUS_CODES[status] || "", headers);
}

/** Slow or stalled clients cannot hold a connection open for ever. */
function tuneTimeouts(server: Server): void {
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  server.maxHeadersCount = 100;
}

async function closeGracefully(listener: Listener, graceMs: number): Promise<void> {
  const server = listener.server as Server;
  const timer = setTimeout(() => server.closeAllConnections(), graceMs);
  try {
    await listener.close();
  } finally {
    clearTimeout(timer);
  }
}

function describeListenError(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE" || /available port/i.test(error.message)) return "the port is in use";
  if (code === "EACCES") return "permission denied (ports below 1024 need privileges)";
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND") return "no such address on this machine";
  return error.message;
}

function originOf(host: string, port: number): string {
  const reachable = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
  return `http://${reachable.includes(":") ? `[${reachable}]` : reachable}:${port}`;
}
