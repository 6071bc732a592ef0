// Every use the server makes of another package's private internals, in this one module, each
// beside the public path it replaces and why. h3 and srvx are pinned to exact versions in
// package.json for these. Each internal is looked for once, when this module loads: where the
// installed version no longer has one, the public path serves instead (slower, same answers), and
// test/server/framework-internals.test.ts fails naming it. That test also runs a server through
// the public paths alone (PUBLIC_PATHS) and checks that it answers the same.
import { H3Event } from "h3";
import { FastResponse } from "srvx";
import type { NodeResponse } from "srvx/node";
import type { HeaderList } from "../../limits/headers.js";

/** A response's parts as node's writeHead and end() take them. */
export interface NodeParts {
  status: number;
  statusText: string;
  headers: string[] | HeaderList;
  /** A string or bytes, a stream, a body that pipes itself (the event stream), or none. */
  body: unknown;
}

export interface FrameworkInternals {
  /**
   * Whether a handler or a middleware (CORS) set a response header through h3's event.res.headers.
   * Private: h3 2 keeps those Headers under registry symbols and creates them on first read. Public
   * path: read event.res.headers, which builds a Headers object on every request just to find it empty.
   */
  hasResponseHeaders(event: H3Event): boolean;
  /**
   * A response's parts for one writeHead and one end(), or undefined to send it with srvx's public
   * sendNodeResponse, which writes the body and then ends through a promise (two writes and a
   * promise per answer). Private: srvx's NodeResponse._toNodeResponse(), and for the guard's own
   * answers (PreparedAnswer) the knowledge that no one read their headers (see readHeadersGetter).
   */
  nodeParts(response: Response): NodeParts | undefined;
}

/** Every internal replaced by its public path: what a server runs on when told to (tests), or when none is found. */
export const PUBLIC_PATHS: FrameworkInternals = { hasResponseHeaders: () => true, nodeParts: () => undefined };

const H3_RESPONSE = Symbol.for("h3.internal.event.res");
const H3_RESPONSE_HEADERS = Symbol.for("h3.internal.event.res.headers");

type Holder = Record<symbol, Record<symbol, unknown> | undefined>;

function h3KeepsHeadersUnderSymbols(): boolean {
  const untouched = new H3Event(new Request("http://probe.invalid/"));
  const touched = new H3Event(new Request("http://probe.invalid/"));
  touched.res.headers.set("x-probe", "1");
  return (untouched as unknown as Holder)[H3_RESPONSE] === undefined && (touched as unknown as Holder)[H3_RESPONSE]?.[H3_RESPONSE_HEADERS] instanceof Headers;
}

function srvxPreparesNodeResponses(): boolean {
  const parts = (new FastResponse("probe", { status: 201 }) as Partial<NodeResponse>)._toNodeResponse?.();
  return parts?.status === 201 && Array.isArray(parts.headers) && parts.body === "probe";
}

/**
 * srvx's FastResponse serves `headers` from a getter on its prototype. Private: that it is a
 * prototype getter, which PreparedAnswer overrides to learn whether anyone read (and so may have
 * changed) its headers. Undefined when srvx keeps them otherwise: then no read is seen, and every
 * PreparedAnswer goes out through srvx.
 */
export function readHeadersGetter(): ((this: Response) => Headers) | undefined {
  const getter = Object.getOwnPropertyDescriptor(FastResponse.prototype, "headers")?.get;
  return typeof getter === "function" ? (getter as (this: Response) => Headers) : undefined;
}

const FOUND = {
  h3ResponseSymbols: h3KeepsHeadersUnderSymbols(),
  srvxToNodeResponse: srvxPreparesNodeResponses(),
  srvxHeadersGetter: readHeadersGetter() !== undefined,
};

/** The internals the installed h3 and srvx no longer have, each in a sentence; empty when all are there. */
export function missingInternals(): string[] {
  const missing: string[] = [];
  if (!FOUND.h3ResponseSymbols) {
    missing.push('h3 no longer keeps event.res headers under Symbol.for("h3.internal.event.res"/".headers"): the guard reads event.res.headers on every request');
  }
  if (!FOUND.srvxToNodeResponse) missing.push("srvx's NodeResponse has no _toNodeResponse(): every answer goes out through sendNodeResponse");
  if (!FOUND.srvxHeadersGetter) missing.push("srvx's FastResponse has no prototype getter for headers: the guard's answers go out through srvx");
  return missing;
}

/** The private paths where the installed versions have them, each of the others replaced by its public path. */
export function frameworkInternals(): FrameworkInternals {
  return {
    hasResponseHeaders: FOUND.h3ResponseSymbols ? hasH3ResponseHeaders : PUBLIC_PATHS.hasResponseHeaders,
    nodeParts: (response) => preparedParts(response) ?? (FOUND.srvxToNodeResponse ? srvxParts(response) : undefined),
  };
}

function hasH3ResponseHeaders(event: H3Event): boolean {
  return (event as unknown as Holder)[H3_RESPONSE]?.[H3_RESPONSE_HEADERS] !== undefined;
}

/** The guard's own answers know their parts, unless someone read their headers. */
function preparedParts(response: Response): NodeParts | undefined {
  const prepared = response as Partial<{ nodeParts(): NodeParts | undefined }>;
  return typeof prepared.nodeParts === "function" ? prepared.nodeParts() : undefined;
}

function srvxParts(response: Response): NodeParts | undefined {
  return (response as Partial<NodeResponse>)._toNodeResponse?.();
}
