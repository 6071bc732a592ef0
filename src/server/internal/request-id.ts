// The id that ties a request's log line to what the client saw: the client's own X-Request-Id
// when it is safe to write into a log line and a header, else a new one.
import { randomUUID } from "node:crypto";
import type { H3Event } from "h3";
import { looksLikeSecret } from "../keys/secrets.js";
import { requestHeader } from "./request-header.js";

declare module "h3" {
  interface H3EventContext {
    requestId?: string;
  }
}

export const REQUEST_ID_HEADER = "x-request-id";
// Bounded and without spaces, quotes or control characters: it cannot forge a log field or a header.
const SANE = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** The request's id, chosen once per request (on first use) and kept on the event. */
export function requestIdOf(event: H3Event): string {
  return (event.context.requestId ??= chooseRequestId(requestHeader(event, REQUEST_ID_HEADER)));
}

/**
 * The client's id when sane, else a new UUID. An id shaped like an API key or a ticket is not
 * taken: it would be echoed in a header and written to every log line of the request in clear.
 */
export function chooseRequestId(sent: string | null): string {
  return sent !== null && SANE.test(sent) && !looksLikeSecret(sent) ? sent : randomUUID();
}
