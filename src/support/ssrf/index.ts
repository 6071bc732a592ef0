// Outgoing requests to URLs other people chose (webhooks) must not reach the host's own network:
// loopback, private, link-local, multicast, unspecified, broadcast, reserved and cloud-metadata
// addresses are refused, IPv4 and IPv6, including IPv6 forms that carry an IPv4 address.
//
// Two checks, both needed:
// - when a URL is registered, `checkOutgoingUrl(text, { allowPrivate })`: a reason for a 400, or ok;
// - at every connection, `createGuardedAgent({ allowPrivate })` as the dispatcher of each delivery,
//   since the name may resolve elsewhere by then (DNS rebinding). Send with `agent.request(...)`,
//   which never follows a redirect (see guarded-agent.ts).
export { classifyAddress, describeAddress, type AddressClass, type RefusedRange } from "./classify-address.js";
export { embeddedIPv4, type EmbeddedIPv4, type Embedding } from "./embedded-ipv4.js";
export { refusedRange, SsrfRefusedError, type AddressPolicy } from "./address-policy.js";
export { checkOutgoingUrl, MAX_URL_LENGTH, type UrlCheck, type UrlCheckOptions } from "./check-url.js";
export { createGuardedAgent, type GuardedAgentOptions } from "./guarded-agent.js";
export { guardedLookup } from "./guarded-lookup.js";
export { systemResolveAll, type ResolveAll, type ResolvedAddress } from "./resolve.js";
