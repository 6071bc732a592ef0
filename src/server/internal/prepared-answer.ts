// A response the guard built whole: status, body and headers, the headers named in lower case as
// they go out. The listener (listen.ts) writes it with one writeHead and one end, without srvx
// turning it into node's form first (a pass over every header that lower-cases each name again);
// a caller of app.fetch (the tests, another runtime) reads it as any Response.
import { STATUS_CODES } from "node:http";
import { FastResponse } from "srvx";
import type { HeaderList } from "../../limits/headers.js";
import { readHeadersGetter, type NodeParts } from "./framework-internals.js";

const inheritedHeaders = readHeadersGetter();

export class PreparedAnswer extends FastResponse {
  readonly code: number;
  /** What goes on the wire; null for a HEAD request's answer or a body-less status. */
  readonly payload: string | Buffer | null;
  readonly #headers: HeaderList;
  /** Someone read `headers` (and may have changed them: the CORS middleware adds its own). */
  #headersRead = false;

  constructor(status: number, payload: string | Buffer | null, headers: HeaderList) {
    super(payload, { status, statusText: STATUS_CODES[status], headers });
    this.code = status;
    this.payload = payload;
    this.#headers = headers;
  }

  /**
   * Its parts for node's writeHead: these headers, and the body's Content-Length unless one is set
   * (a compressed body's). Undefined once `headers` was read, or when reads cannot be seen: what
   * is sent is then what srvx holds.
   */
  nodeParts(): NodeParts | undefined {
    if (this.#headersRead || inheritedHeaders === undefined) return undefined;
    const headers = this.#headers;
    const payload = this.payload;
    const statusText = STATUS_CODES[this.code] ?? "";
    if (payload === null || headers.some(([name]) => name === "content-length")) return { status: this.code, statusText, headers, body: payload };
    const length = String(typeof payload === "string" ? Buffer.byteLength(payload) : payload.byteLength);
    return { status: this.code, statusText, headers: [...headers, ["content-length", length]], body: payload };
  }

  static {
    // Response declares `headers` as a property, so TypeScript allows no accessor over it; the
    // prototype gets one that notes the read and hands over srvx's own Headers.
    if (inheritedHeaders !== undefined) {
      Object.defineProperty(PreparedAnswer.prototype, "headers", {
        configurable: true,
        get(this: PreparedAnswer): Headers {
          this.#headersRead = true;
          return inheritedHeaders.call(this);
        },
      });
    }
  }
}
