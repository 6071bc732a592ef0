// HTTP/1.1 over a bare TCP socket, for what fetch and undici refuse to send: invalid UTF-8,
// malformed request lines and headers, unknown methods, bodies that stall or never end.
import { connect, type Socket } from "node:net";

export interface RawAnswer {
  status: number;
  /** Header names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
}

export interface RawOptions {
  /** A HEAD answer has framing headers but no body. */
  head?: boolean;
  /** Fail (a hang) when no complete answer arrives within this long. */
  timeoutMs?: number;
  /** Half-close after writing, as a client that has nothing more to say. */
  end?: boolean;
}

/**
 * Sends `bytes` on a new connection and reads one answer; null when the server closed the
 * connection without a single byte.
 */
export async function sendRaw(origin: string, bytes: Uint8Array | string, options: RawOptions = {}): Promise<RawAnswer | null> {
  const socket = await open(origin);
  try {
    const answer = readAnswer(socket, options);
    socket.write(bytes);
    if (options.end ?? true) socket.end();
    return await answer;
  } finally {
    socket.destroy();
  }
}

export async function open(origin: string): Promise<Socket> {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  socket.setNoDelay(true);
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  return socket;
}

/** Resolves with the first complete answer on `socket`, null if it closes before any byte. */
export function readAnswer(socket: Socket, options: RawOptions = {}): Promise<RawAnswer | null> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => finish(new Error(`no complete answer within ${timeoutMs} ms; got ${show(received)}`)), timeoutMs);
    const finish = (outcome: RawAnswer | null | Error) => {
      clearTimeout(timer);
      socket.off("data", onData).off("close", onClose).off("error", onError);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const parsed = parseAnswer(received, options.head ?? false, false);
      if (parsed) finish(parsed);
    };
    const onClose = () => {
      if (received.length === 0) return finish(null);
      finish(parseAnswer(received, options.head ?? false, true) ?? new Error(`connection closed mid-answer: ${show(received)}`));
    };
    // A reset after the answer started is reported by onClose with what arrived.
    const onError = () => undefined;
    socket.on("data", onData).on("close", onClose).on("error", onError);
  });
}

/** The answer in `bytes` if it is complete (or ends with the connection, when `closed`). */
function parseAnswer(bytes: Buffer, head: boolean, closed: boolean): RawAnswer | undefined {
  const end = bytes.indexOf("\r\n\r\n");
  if (end === -1) return undefined;
  const [statusLine = "", ...lines] = bytes.subarray(0, end).toString("latin1").split("\r\n");
  const match = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(statusLine);
  if (!match) throw new Error(`not an HTTP/1.1 status line: ${JSON.stringify(statusLine)}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const status = Number(match[1]);
  const rest = bytes.subarray(end + 4);
  if (head || status === 204 || status === 304) return { status, headers, body: "" };
  if (headers["content-length"] !== undefined) {
    const length = Number(headers["content-length"]);
    return rest.length >= length ? { status, headers, body: rest.subarray(0, length).toString("utf8") } : undefined;
  }
  if (headers["transfer-encoding"]?.toLowerCase() === "chunked") {
    const body = dechunk(rest);
    return body === undefined ? undefined : { status, headers, body };
  }
  return closed ? { status, headers, body: rest.toString("utf8") } : undefined;
}

function dechunk(bytes: Buffer): string | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf("\r\n", at);
    if (lineEnd === -1) return undefined;
    const size = parseInt(bytes.subarray(at, lineEnd).toString("latin1"), 16);
    if (Number.isNaN(size)) throw new Error(`bad chunk size line in ${show(bytes)}`);
    if (size === 0) return bytes.indexOf("\r\n", lineEnd + 2) === -1 ? undefined : Buffer.concat(parts).toString("utf8");
    if (bytes.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

const show = (bytes: Buffer) => JSON.stringify(bytes.subarray(0, 300).toString("latin1"));

/** A request head as bytes: the request line, `Host`, the given header lines, the blank line. */
export function requestHead(requestLine: string, headerLines: string[] = [], host = "petstore.test"): string {
  return [requestLine, `Host: ${host}`, ...headerLines, "", ""].join("\r\n");
}
