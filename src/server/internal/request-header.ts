// Reading the request headers a request usually does not send, without paying for their absence.
import type { H3Event } from "h3";

/**
 * Headers that node joins with ", " when repeated, exactly as the Headers view would: for these,
 * node's own parsed headers give the same answer. (Authorization, Content-Type and the others
 * node keeps only the first of are read through srvx, which sees the repeats.)
 */
export type JoinedHeaderName =
  | "accept"
  | "accept-encoding"
  | "if-none-match"
  | "if-match"
  | "x-request-id"
  | "origin"
  | "last-event-id"
  | "idempotency-key";

const JOINED: ReadonlySet<string> = new Set<JoinedHeaderName>([
  "accept",
  "accept-encoding",
  "if-none-match",
  "if-match",
  "x-request-id",
  "origin",
  "last-event-id",
  "idempotency-key",
]);

/**
 * A request header, null when not sent. Over node it is read from node's parsed headers: srvx's
 * Headers view lower-cases the name on every call and tests an absent one against a regular
 * expression, a cost for each header a request does not send, and a listing asks for several;
 * through app.fetch it is read from the Request.
 */
export function requestHeader(event: H3Event, name: JoinedHeaderName): string | null {
  const req = event.req.runtime?.node?.req;
  if (req === undefined) return event.req.headers.get(name);
  const value = req.headers[name];
  return value === undefined ? null : typeof value === "string" ? value : value.join(", ");
}

/** A reader of one request header, by its lower-case name: node's where it agrees with the Headers view, else the view's. */
export function headerReader(name: string): (event: H3Event) => string | null {
  if (JOINED.has(name)) return (event) => requestHeader(event, name as JoinedHeaderName);
  return (event) => event.req.headers.get(name);
}
