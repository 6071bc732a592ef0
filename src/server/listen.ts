import { ServerResponse, STATUS_CODES, type IncomingMessage, type OutgoingHttpHeaders, type Server } from "node:http";
import type { H3 } from "h3";
import type { ErrorBody } from "../contract/values.js";
import { listen, type Listener } from "listhen";
import { NodeRequest, sendNodeResponse } from "srvx/node";
import { applyDeadlines, DEFAULT_DEADLINES, type HttpDeadlines } from "./internal/deadlines.js";
import { answerTransportErrors, refuseMissingHost } from "./internal/transport-errors.js";

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
export async function listenStrict(
  app: H3,
  port: number,
  host: string,
  deadlines: HttpDeadlines = DEFAULT_DEADLINES,
): Promise<HttpListener> {
  const handler = toNodeListener(app);
  const listener = await listen(handler, {
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
  const server = listener.server as Server;
  applyDeadlines(server, deadlines);
  answerTransportErrors(server, deadlines);
  guardShutdownTracker(server, handler);
  return {
    origin: originOf(host, listener.address.port),
    port: listener.address.port,
    close: (graceMs = 10_000) => closeGracefully(listener, graceMs),
  };
}

type WriteHead = (this: ServerResponse, status: number, reason: string, headers?: OutgoingHttpHeaders) => ServerResponse;
const originalWriteHead = ServerResponse.prototype.writeHead as WriteHead;

function writeHeadWithReason(this: ServerResponse, status: number, reason?: string, headers?: OutgoingHttpHeaders) {
  return originalWriteHead.call(this, status, reason || STATUS_CODES[status] || "", headers);
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => unknown;

/** What srvx's FastResponse hands its own Node adapter: the parts, without a web body stream. */
interface NodeParts {
  status: number;
  statusText: string;
  headers: string[];
  body: unknown;
}
type FastResponseParts = Response & { _toNodeResponse?: () => NodeParts };

/**
 * h3/node's toNodeHandler (srvx), with a shortcut measured on this server's hot path: a response
 * whose body is already a string, as every JSON answer is, goes out with one writeHead and one
 * end(), instead of write(), end() and a promise per response. Anything else goes to srvx.
 */
function toNodeListener(app: H3): RequestListener {
  return (req, res) => {
    if (refuseMissingHost(req, res)) return;
    const answer = app.fetch(new NodeRequest({ req, res }) as unknown as Request);
    if (answer instanceof Promise) answer.then((response) => send(res, response), (error) => fail(res, error));
    else send(res, answer);
  };
}

function send(res: ServerResponse, response: FastResponseParts): void {
  if (typeof response._toNodeResponse !== "function") return sendThroughSrvx(res, response);
  const { status, statusText, headers, body } = response._toNodeResponse();
  if (body !== undefined && body !== null && typeof body !== "string" && !(body instanceof Uint8Array)) {
    return sendThroughSrvx(res, new Response(body as ReadableStream, { status, statusText, headers: pairs(headers) }));
  }
  res.writeHead(status, statusText || STATUS_CODES[status] || "", headers);
  res.end(body ?? undefined);
}

/**
 * srvx passes an empty reason phrase to writeHead, so the status line would read `HTTP/1.1 201 `
 * in curl; fill in the standard phrase.
 */
function sendThroughSrvx(res: ServerResponse, response: Response): void {
  res.writeHead = writeHeadWithReason as ServerResponse["writeHead"];
  sendNodeResponse(res, response).catch((error: unknown) => fail(res, error));
}

function pairs(flat: string[]): Array<[string, string]> {
  const list: Array<[string, string]> = [];
  for (let i = 0; i < flat.length; i += 2) list.push([flat[i]!, flat[i + 1]!]);
  return list;
}

/** The app's own error handling failed: answer 500 if nothing was sent, else cut the connection. */
function fail(res: ServerResponse, error: unknown): void {
  console.error("petstore: cannot send the response:", error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body: ErrorBody = { code: "internal_error", message: "an unexpected error occurred; it has been logged on the server", status: 500 };
  res.writeHead(500, { "content-type": "application/json", connection: "close" }).end(JSON.stringify(body));
}

/**
 * listhen's http-shutdown reads `req.socket` when a response finishes; Node has set it to null
 * by then if the connection broke mid-request, and the TypeError would end the process. Hand
 * it the socket as it was when the request arrived.
 */
function guardShutdownTracker(server: Server, ours: RequestListener): void {
  for (const tracker of server.listeners("request") as RequestListener[]) {
    if (tracker === ours) continue;
    server.removeListener("request", tracker);
    server.on("request", (req: IncomingMessage, res: ServerResponse) => tracker({ socket: req.socket } as IncomingMessage, res));
  }
}

async function closeGracefully(listener: Listener, graceMs: number): Promise<void> {
  const server = listener.server as Server;
  // From now on every answer says `Connection: close`, so keep-alive clients stop sending
  // requests on connections that are about to close.
  server.prependListener("request", (_req: IncomingMessage, res: ServerResponse) => (res.shouldKeepAlive = false));
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
