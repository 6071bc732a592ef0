// Requests Node's HTTP layer refuses before the app sees them (bad request lines, oversize
// headers, deadlines, CONNECT): answered with the Error body instead of Node's bare status line.
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { errorJson, statusOf, type ErrorCode } from "../../contract/errors.js";
import { kibibytes, seconds, type HttpDeadlines } from "../../contract/limits.js";
import { deferContinue } from "./expect-continue.js";
import { SECURITY_HEADERS_OBJECT } from "./security-headers.js";

interface TransportAnswer {
  code: ErrorCode;
  message: string;
  headers?: Record<string, string>;
}

type Deadlines = Pick<HttpDeadlines, "headersMs" | "requestMs">;

/** What the parser was told (server.maxHeaderSize): the 431 message quotes it. */
interface Limits extends Deadlines {
  maxHeaderBytes: number;
}

/** Wires the answers into a server; the request-head checks (refuseBadHead) run in its request listener. */
export function answerTransportErrors(server: Server, limits: Limits): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket, limits));
  server.on("connect", (_req: IncomingMessage, socket: Duplex) => answerRaw(socket, CONNECT_REFUSED));
  // An unknown Expect value: serve the request as if it had none (RFC 9110 allows it) instead
  // of Node's bodiless 417. Emitting "request" keeps every request listener in the loop.
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => server.emit("request", req, res));
  deferContinue(server);
  // Node would answer a missing Host with a bodiless 400 before our listener runs.
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
}

/**
 * What node's parser lets through and RFC 9112 does not: a request line of another version than
 * HTTP/1.x (HTTP/2.0, or none at all: HTTP/0.9), an HTTP/1.1 request without Host, and one with
 * two (§3.2: 400 for either). True when it was answered here, with the connection closed.
 */
export function refuseBadHead(req: IncomingMessage, res: ServerResponse): boolean {
  const message = headProblem(req);
  if (message === undefined) return false;
  const body = errorJson("malformed_request", message);
  res.writeHead(statusOf("malformed_request"), {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    ...SECURITY_HEADERS_OBJECT,
    connection: "close",
  });
  res.end(body);
  return true;
}

function headProblem(req: IncomingMessage): string | undefined {
  if (req.httpVersionMajor !== 1) {
    return req.httpVersionMajor === 0 ? "the request line must end with its version, HTTP/1.1" : `HTTP/${req.httpVersion} is not spoken here: send HTTP/1.1`;
  }
  if (req.headers.host === undefined) return req.httpVersionMinor === 1 ? "an HTTP/1.1 request must carry a Host header" : undefined;
  return hostLines(req.rawHeaders) > 1 ? "the request carries more than one Host header" : undefined;
}

/** Node keeps only the first Host in `headers`; its raw list still has every line. */
function hostLines(raw: readonly string[]): number {
  let count = 0;
  for (let at = 0; at < raw.length; at += 2) {
    const name = raw[at]!;
    // The usual spellings first: no lower-cased copy on the path of every request.
    if (name.length === 4 && (name === "host" || name === "Host" || name.toLowerCase() === "host")) count++;
  }
  return count;
}

const CONNECT_REFUSED: TransportAnswer = {
  code: "method_not_allowed",
  message: "method CONNECT is not allowed: this server is not a proxy",
  // RFC 9110 §10.2.1: an empty Allow says the target allows no method at all.
  headers: { allow: "" },
};

function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, limits: Limits): void {
  if (error.code !== "ECONNRESET" && socket.writable && !responseStarted(socket)) {
    answerRaw(socket, answerFor(error.code, limits));
  } else {
    socket.destroy();
  }
}

function answerFor(code: string | undefined, limits: Limits): TransportAnswer {
  if (code === "HPE_HEADER_OVERFLOW") {
    return { code: "headers_too_large", message: `the request headers are larger than ${kibibytes(limits.maxHeaderBytes)}` };
  }
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return {
      code: "request_timeout",
      message: `the request did not arrive in time: headers within ${seconds(limits.headersMs)}, the whole request within ${seconds(limits.requestMs)}`,
    };
  }
  return { code: "malformed_request", message: "the request is not valid HTTP/1.1" };
}

/** Another response already went out on this socket: writing now would corrupt it. */
function responseStarted(socket: Duplex): boolean {
  return (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage?.headersSent === true;
}

/** Writes a whole response on the bare socket, then closes it once the bytes are out. */
function answerRaw(socket: Duplex, answer: TransportAnswer): void {
  const body = errorJson(answer.code, answer.message);
  const headers = {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    ...SECURITY_HEADERS_OBJECT,
    connection: "close",
    ...answer.headers,
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  const status = statusOf(answer.code);
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`);
  socket.once("finish", () => socket.destroy());
}
