import type { H3Event } from "h3";
import { anonymousBucket, clientAddress, type TrustProxy } from "./client-ip.js";

/**
 * The bucket a request without a key is counted under: the client's IPv4 address or IPv6 /56,
 * X-Forwarded-For believed only as --trust-proxy says.
 */
export function clientBucket(event: H3Event, trustProxy: TrustProxy | false | undefined): string {
  const forwarded = trustProxy ? event.req.headers.get("x-forwarded-for") : null;
  // As h3's getRequestIP: a runtime's own client address first (srvx sets it on some), else the socket's.
  const peer = event.req.context?.clientAddress ?? event.req.ip;
  return anonymousBucket(clientAddress(typeof peer === "string" ? peer : undefined, forwarded, trustProxy || undefined));
}
