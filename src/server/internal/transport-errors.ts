// Requests Node's HTTP layer refuses before the app sees them (bad request lines, oversize
// headers, deadlines, CONNECT): answered with the Error body instead of Node's bare status line.
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { ErrorBody, ErrorCode } from "../../contract/values.js";
import type { HttpDeadlines } from "./deadlines.js";

interface TransportAnswer {
  status: number;
  code: ErrorCode;
  message: string;
  headers?: Record<string, string>;
}

type Deadlines = Pick<HttpDeadlines, "headersMs" | "requestMs">;

/** Wires the answers into a server; the missing-Host check runs in its request listener. */
export function answerTransportErrors(server: Server, deadlines: Deadlines): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket, deadlines));
  server.on("connect", (_req: IncomingMessage, socket: Duplex) => answerRaw(socket, CONNECT_REFUSED));
  // An unknown Expect value: serve the request as if it had none (RFC 9110 allows it) instead
  // of Node's bodiless 417. Emitting "request" keeps every request listener in the loop.
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => server.emit("request", req, res));
  // Node would answer a missing Host with a bodiless 400 before our listener runs.
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
}

/** RFC 9112 §3.2: an HTTP/1.1 request without Host is a 400; true when it was answered here. */
export function refuseMissingHost(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.httpVersion !== "1.1" || req.headers.host !== undefined) return false;
  const answer = MISSING_HOST;
  res.writeHead(answer.status, { "content-type": "application/json", connection: "close" });
  res.end(errorJson(answer));
  return true;
}

const MISSING_HOST: TransportAnswer = {
  status: 400,
  code: "malformed_request",
  message: "an HTTP/1.1 request must carry a Host header",
};

const CONNECT_REFUSED: TransportAnswer = {
  status: 405,
  code: "method_not_allowed",
  message: "method CONNECT is not allowed: this server is not a proxy",
  // RFC 9110 §10.2.1: an empty Allow says the target allows no method at all.
  headers: { allow: "" },
};

function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, deadlines: Deadlines): void {
  if (error.code !== "ECONNRESET" && socket.writable && !responseStarted(socket)) {
    answerRaw(socket, answerFor(error.code, deadlines));
  } else {
    socket.destroy();
  }
}

function answerFor(code: string | undefined, deadlines: Deadlines): TransportAnswer {
  if (code === "HPE_HEADER_OVERFLOW") {
    return { status: 431, code: "headers_too_large", message: "the request headers are larger than 16 KiB" };
  }
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return {
      status: 408,
      code: "request_timeout",
      message: `the request did not arrive in time: headers within ${seconds(deadlines.headersMs)}, the whole request within ${seconds(deadlines.requestMs)}`,
    };
  }
  return { status: 400, code: "malformed_request", message: "the request is not valid HTTP/1.1" };
}

/** Another response already went out on this socket: writing now would corrupt it. */
function responseStarted(socket: Duplex): boolean {
  return (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage?.headersSent === true;
}

/** Writes a whole response on the bare socket, then closes it once the bytes are out. */
function answerRaw(socket: Duplex, answer: TransportAnswer): void {
  const body = errorJson(answer);
  const headers = {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    connection: "close",
    ...answer.headers,
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  socket.end(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${head}\r\n${body}`);
  socket.once("finish", () => socket.destroy());
}

const seconds = (ms: number) => `${ms / 1000} s`;

function errorJson(answer: TransportAnswer): string {
  const body: ErrorBody = { code: answer.code, message: answer.message, status: answer.status };
  return JSON.stringify(body);
}
