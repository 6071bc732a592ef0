import type { H3Event } from "h3";
import { openApiJson } from "../../contract/openapi.js";
import { chooseCoding, compress, type Coding } from "../internal/compression.js";

/** The document compressed once per coding: it never changes while the server runs. */
const compressed = new Map<Coding, Buffer>();

/**
 * GET /v1/openapi.json: the document, built on the first request and reused as a string; some
 * 200 KB, so compressed (br or gzip, as for any JSON answer) for a client that accepts it.
 */
export function getOpenApi(event: H3Event): string | Uint8Array {
  const headers = event.res.headers;
  headers.set("content-type", "application/json;charset=UTF-8");
  const text = openApiJson();
  const acceptEncoding = event.req.headers.get("accept-encoding");
  if (acceptEncoding === null) return text;
  headers.set("vary", "Accept-Encoding");
  const coding = chooseCoding(acceptEncoding);
  if (coding === undefined) return text;
  let body = compressed.get(coding);
  if (body === undefined) compressed.set(coding, (body = compress(text, coding, undefined)));
  headers.set("content-encoding", coding);
  headers.set("content-length", String(body.length));
  return body;
}
