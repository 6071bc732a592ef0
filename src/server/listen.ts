// The listener: listhen on exactly the port asked for, over HTTP or HTTPS, with the request
// limits applied and Node's refusals answered with the Error body.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { H3 } from "h3";
import { listen, type Listener } from "listhen";
import { Readable } from "node:stream";
import { NodeRequest, sendNodeResponse } from "srvx/node";
import { errorJson } from "../contract/errors.js";
import { INTERNAL_ERROR_MESSAGE } from "./error-response.js";
import { frameworkInternals, type FrameworkInternals } from "./internal/framework-internals.js";
import { applyLimits, DEFAULT_LIMITS, type HttpLimits } from "./internal/deadlines.js";
import { cannotListen, listenFailure } from "./internal/listen-failure.js";
import { listhenHttps, type ServeTls } from "./internal/tls.js";
import { SECURITY_HEADERS_OBJECT } from "./internal/security-headers.js";
import { answerTransportErrors, refuseBadHead } from "./internal/transport-errors.js";
import type { ChaosControl } from "./chaos/chaos-control.js";
import { injectFault } from "./chaos/inject-fault.js";

export interface ListenOptions {
  port: number;
  host: string;
  tls?: ServeTls;
  /** The deadlines and head size; tests pass short deadlines. */
  limits?: Partial<HttpLimits>;
  /** How answers are handed to node: srvx's private fast path where it has one (PUBLIC_PATHS in a test). */
  internals?: FrameworkInternals;
  /** Faults on purpose (--chaos), met before the app sees the request. */
  chaos?: ChaosControl;
}

export interface HttpListener {
  /** e.g. http://127.0.0.1:3000, or https://... */
  origin: string;
  port: number;
  /** The other origins it answers on when bound to every address (0.0.0.0 or ::), from listhen. */
  networkOrigins: string[];
  /** The self-signed certificate listhen made for this start (PEM), for clients to trust. */
  selfSignedCertificate?: string;
  /** Stops accepting, lets in-flight requests finish (at most `graceMs`), then closes. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Listens through listhen on exactly the port asked for; a taken port is an error, never another
 * port. listhen's production mode is what gives that: no alternative port range, and no random
 * port unless 0 was asked for.
 */
export async function listenStrict(app: Pick<H3, "fetch">, options: ListenOptions): Promise<HttpListener> {
  const { port, host } = options;
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const https = options.tls ? await listhenHttps(options.tls) : false;
  const handler = withChaos(toNodeListener(app, options.internals ?? frameworkInternals()), options.chaos);
  const listener = await listen(handler, {
    port: { port, random: port === 0 },
    hostname: host,
    // listhen would otherwise bind "localhost" instead of 0.0.0.0 outside Docker and WSL.
    public: isAnyHost(host),
    isProd: true,
    https,
    showURL: false,
    // listhen's autoClose calls process.exit on SIGTERM: serve stops gracefully itself.
    autoClose: false,
  }).catch(async (error: unknown) => {
    throw await listenFailure(error, host, port);
  });
  if (port !== 0 && listener.address.port !== port) {
    // get-port-please (listhen's port finder) skips the ports browsers block (e.g. 6000, 10080)
    // and tries 3000 instead, whatever the mode: the only case where it moves.
    await listener.close();
    throw cannotListen(host, port, "listhen refuses this port (a port browsers block)");
  }
  const server = listener.server as Server;
  applyLimits(server, limits);
  answerTransportErrors(server, limits);
  const scheme = https ? "https" : "http";
  return {
    origin: originOf(scheme, host, listener.address.port),
    port: listener.address.port,
    networkOrigins: await networkOrigins(listener, scheme, host),
    selfSignedCertificate: https === true && listener.https ? listener.https.cert : undefined,
    close: (graceMs = 10_000) => closeGracefully(listener, graceMs),
  };
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => unknown;

/**
 * h3/node's toNodeHandler (srvx), plus the request-head checks before the app and an Error body
 * when sending fails. The app sets the reason phrase on every response (see the guard).
 */
function toNodeListener(app: Pick<H3, "fetch">, internals: FrameworkInternals): RequestListener {
  return (req, res) => {
    if (refuseBadHead(req, res)) return;
    const answer = app.fetch(new NodeRequest({ req, res }) as unknown as Request);
    if (answer instanceof Promise) answer.then((response) => send(res, response, internals), (error) => fail(res, error));
    else send(res, answer, internals);
  };
}

/** The listener behind the faults `chaos` decides for each request; the listener itself without. */
function withChaos(listener: RequestListener, chaos: ChaosControl | undefined): RequestListener {
  if (!chaos) return listener;
  return (req, res) => {
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const decision = chaos.decide(query < 0 ? url : url.slice(0, query));
    if (decision) injectFault(decision, req, res, () => listener(req, res));
    else listener(req, res);
  };
}

/**
 * srvx's own Response (every answer of the guard, and h3's) hands over its parts as they are: a
 * body already in memory goes out with writeHead and one end(), which node sends as a single
 * write of head and body. sendNodeResponse would write the body, then end through a promise
 * (two writes, a writev and a promise per answer, which a CPU profile showed). Streams
 * (the event stream) and any other Response still go through sendNodeResponse, and so does
 * everything where `internals` has no private path (see framework-internals.ts).
 */
function send(res: ServerResponse, response: Response, internals: FrameworkInternals): void {
  const prepared = internals.nodeParts(response);
  if (prepared === undefined) {
    sendNodeResponse(res, response).catch((error: unknown) => fail(res, error));
    return;
  }
  const { status, statusText, headers, body } = prepared;
  if (body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array) {
    writeWhole(res, status, safeReasonPhrase(statusText), headers, body);
    return;
  }
  if (body instanceof ReadableStream || body instanceof Readable) {
    const pairs = headerPairs(headers);
    const web = body instanceof ReadableStream ? body : (Readable.toWeb(body) as ReadableStream);
    sendNodeResponse(res, new Response(web, { status, statusText, headers: pairs })).catch((error: unknown) => fail(res, error));
    return;
  }
  // A body that writes itself (the event stream, see EventStream): node's pipe contract, as srvx
  // keeps it: the head first, then pipe(res); a HEAD gets the head alone.
  const writer = body as unknown as { pipe(target: ServerResponse): unknown; destroy?(): void; abort?(): void };
  try {
    res.writeHead(status, safeReasonPhrase(statusText), headers);
    if (res.req.method === "HEAD") {
      if (writer.destroy) writer.destroy();
      else writer.abort?.();
      res.end();
    } else {
      writer.pipe(res);
    }
  } catch (error) {
    fail(res, error);
  }
}

/** srvx's flat [name, value, name, value...] list as pairs; pairs as they are. */
function headerPairs(headers: string[] | Array<[string, string]>): Array<[string, string]> {
  if (headers.length === 0 || Array.isArray(headers[0])) return headers as Array<[string, string]>;
  const flat = headers as string[];
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i]!, flat[i + 1]!]);
  return pairs;
}

/** A body in memory: node sends the head and the body in one write. */
function writeWhole(
  res: ServerResponse,
  status: number,
  reason: string,
  headers: string[] | Array<[string, string]>,
  body: string | Uint8Array | null | undefined,
): void {
  try {
    if (!res.headersSent) res.writeHead(status, reason, headers);
    res.end(body ?? undefined);
  } catch (error) {
    // A header node refuses (a control character): as sendNodeResponse's rejection did.
    fail(res, error);
  }
}

/** As srvx does: a reason phrase keeps only the characters HTTP allows in one. */
function safeReasonPhrase(statusText: string): string {
  return statusText && /[^\t\u0020-\u007E\u0080-\u00FF]/.test(statusText) ? statusText.replace(/[^\t\u0020-\u007E\u0080-\u00FF]/g, "") : statusText;
}

/** The app's own error handling failed: answer 500 if nothing was sent, else cut the connection. */
function fail(res: ServerResponse, error: unknown): void {
  console.error("petstore: cannot send the response:", error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(500, { "content-type": "application/json", ...SECURITY_HEADERS_OBJECT, connection: "close" });
  res.end(errorJson("internal_error", INTERNAL_ERROR_MESSAGE));
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

/** The machine's own addresses, as listhen lists them for a server bound to every address. */
async function networkOrigins(listener: Listener, scheme: string, host: string): Promise<string[]> {
  if (!isAnyHost(host)) return [];
  const urls = await listener.getURLs({ extraURLs: [] });
  return urls.filter((url) => url.type === "network").map((url) => originOf(scheme, new URL(url.url).hostname, listener.address.port));
}

const isAnyHost = (host: string) => host === "0.0.0.0" || host === "::";

function originOf(scheme: string, host: string, port: number): string {
  const reachable = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host.replace(/^\[|\]$/g, "");
  return `${scheme}://${reachable.includes(":") ? `[${reachable}]` : reachable}:${port}`;
}
