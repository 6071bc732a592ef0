// The headers every answer carries for the client's safety, in one place (the guard, the error
// path and the transport's own answers all use them):
// - `X-Content-Type-Options: nosniff` on every answer, so a browser never runs a JSON body (or a
//   pet name inside one) as HTML or script;
// - `Cache-Control: no-store` on every answer that may be about a caller (anything sent with a
//   key, every error, the probes and /metrics), so no shared or browser cache keeps a key's data.
//   Conditional GETs still work: the ETag and If-None-Match are the client's own revalidation and
//   a 304 carries the same headers (RFC 9110 15.4.5). Only a public document fetched without a
//   key (the OpenAPI document) is left to the default caching rules.
import type { HeaderList } from "../../limits/headers.js";

export const NOSNIFF: readonly [string, string] = ["x-content-type-options", "nosniff"];
export const NO_STORE: readonly [string, string] = ["cache-control", "no-store"];

// Built once: the guard adds them to every answer, and nothing mutates a pair once listed.
const SHAREABLE: HeaderList = [[...NOSNIFF]];
const PRIVATE: HeaderList = [[...NOSNIFF], [...NO_STORE]];

/** The pairs for one answer; `shareable` only for a public operation asked for without a key. */
export function securityHeaders(shareable: boolean): HeaderList {
  return shareable ? SHAREABLE : PRIVATE;
}

/** Adds them to headers being built (an error answer): nosniff always, no-store unless a Cache-Control is already set. */
export function addSecurityHeaders(headers: Headers): void {
  headers.set(NOSNIFF[0], NOSNIFF[1]);
  if (!headers.has(NO_STORE[0])) headers.set(NO_STORE[0], NO_STORE[1]);
}

/** The same as a plain object, for answers written on a bare socket or with writeHead. */
export const SECURITY_HEADERS_OBJECT: Readonly<Record<string, string>> = { [NOSNIFF[0]]: NOSNIFF[1], [NO_STORE[0]]: NO_STORE[1] };
