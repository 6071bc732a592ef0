import { IncomingMessage } from "node:http";
import type { H3Event } from "h3";
import { kibibytes, MAX_BODY_BYTES } from "../../contract/limits.js";
import { messageOf } from "../../support/error-text.js";
import { ApiHttpError } from "../errors.js";
import { refuseContinue } from "./expect-continue.js";
import { lingerAfterRefusal } from "./lingering-close.js";
import { safeEcho } from "../../support/safe-echo.js";

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Reads a JSON request body: checks the media type, enforces the size limit while the body
 * streams in (a huge body is refused without being buffered), and rejects invalid UTF-8.
 */
export async function readJsonBody(event: H3Event, mediaTypes: readonly string[] = JSON_ONLY): Promise<unknown> {
  assertMediaType(event.req.headers.get("content-type"), mediaTypes);
  assertIdentity(event.req.headers.get("content-encoding"));
  const declared = event.req.headers.get("content-length");
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw refuseBody(event);
  const bytes = await readLimited(event);
  if (bytes.byteLength === 0) throw invalidJson("the request body is empty; expected a JSON object");
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw invalidJson("the request body is not valid UTF-8");
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidJson(`the request body is not valid JSON: ${withoutExcerpt(messageOf(error))}`);
  }
}

/**
 * V8's JSON.parse message without the excerpt of the body it quotes: the excerpt can start
 * anywhere, e.g. inside a secret pasted into the wrong place, and error bodies never carry one.
 */
function withoutExcerpt(message: string): string {
  const bare = message.replace(/(?:, )?(?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, "");
  return bare === "" ? "not a JSON value" : bare;
}

const JSON_ONLY = ["application/json"];

function assertMediaType(contentType: string | null, mediaTypes: readonly string[]): void {
  const [type, ...parameters] = contentType?.split(";") ?? [];
  const mediaType = type?.trim().toLowerCase();
  if (mediaType === undefined || !mediaTypes.includes(mediaType)) {
    throw new ApiHttpError(
      "unsupported_media_type",
      `Content-Type must be ${mediaTypes.join(" or ")}, got ${contentType === null ? "none" : JSON.stringify(safeEcho(contentType))}`,
    );
  }
  // JSON is UTF-8 (RFC 8259 §8.1): a body labelled otherwise would be read as what it is not.
  const charset = charsetOf(parameters);
  if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
    throw new ApiHttpError("unsupported_media_type", `the body must be UTF-8: charset ${JSON.stringify(safeEcho(charset))} is not accepted`);
  }
}

function charsetOf(parameters: string[]): string | undefined {
  for (const parameter of parameters) {
    const equals = parameter.indexOf("=");
    if (parameter.slice(0, equals).trim().toLowerCase() === "charset") return parameter.slice(equals + 1).trim().replace(/^"(.*)"$/, "$1").toLowerCase();
  }
  return undefined;
}

/**
 * Bodies are read as sent: one compressed, or labelled so, is refused rather than parsed as
 * garbage (RFC 7694: 415, with Accept-Encoding naming what is accepted).
 */
function assertIdentity(contentEncoding: string | null): void {
  if (contentEncoding === null) return;
  const codings = contentEncoding.split(",").map((coding) => coding.trim().toLowerCase());
  if (codings.every((coding) => coding === "identity" || coding === "")) return;
  throw new ApiHttpError(
    "unsupported_media_type",
    `Content-Encoding ${JSON.stringify(safeEcho(contentEncoding))} is not accepted: send the body uncompressed, without Content-Encoding`,
    { "accept-encoding": "identity" },
  );
}

async function readLimited(event: H3Event): Promise<Uint8Array> {
  const nodeRequest = event.req.runtime?.node?.req;
  if (nodeRequest instanceof IncomingMessage) return readNodeBody(event, nodeRequest);
  const body = event.req.body;
  if (body === null) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      throw invalidJson("the request body ended before it was complete");
    });
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      // Not cancel(): that destroys the socket before the 413 is written. The rest is drained
      // and `Connection: close` ends the connection after the answer, lingering (see there).
      reader.releaseLock();
      throw refuseBody(event);
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/**
 * The same, straight from node's request when served over a socket: srvx's `req.body` wraps it in
 * a web ReadableStream first (Readable.toWeb, makeTransferable), a large share of a create's CPU
 * in a profile.
 */
function readNodeBody(event: H3Event, request: IncomingMessage): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error: ApiHttpError | undefined) => {
      request.off("data", onData).off("end", onEnd).off("error", onCut).off("close", onCut);
      if (error) reject(error);
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      // The rest is drained by the lingering close, as on the web stream's path.
      if (size > MAX_BODY_BYTES) settle(refuseBody(event));
      else chunks.push(chunk);
    };
    const onEnd = () => settle(undefined);
    const onCut = () => settle(invalidJson("the request body ended before it was complete"));
    request.on("data", onData).once("end", onEnd).once("error", onCut).once("close", onCut);
  });
}

function refuseBody(event: H3Event): ApiHttpError {
  const request = event.req.runtime?.node?.req;
  // Refused on its declared size: a client waiting for 100 Continue gets the 413 instead.
  if (request instanceof IncomingMessage) refuseContinue(request);
  lingerAfterRefusal(request);
  return payloadTooLarge();
}

const payloadTooLarge = () =>
  new ApiHttpError("payload_too_large", `the request body is larger than ${kibibytes(MAX_BODY_BYTES)} (${MAX_BODY_BYTES} bytes)`, {
    connection: "close",
  });

const invalidJson = (message: string) => new ApiHttpError("invalid_json", message);
