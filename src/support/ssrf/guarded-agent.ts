// An undici Agent for requests to URLs other people chose (webhook deliveries): every connection
// checks the address it is about to reach, whether the host is a name (guarded-lookup.ts) or a
// literal address (net.connect skips the lookup for those, so it is checked here).
//
// How to send with it: `agent.request({ origin, path, method, headers, body, signal })` or
// undici's `request(url, { dispatcher: agent, ... })`. Neither follows redirects: a 3xx comes
// back as the answer, which a webhook sender counts as a failure. Do not compose
// `interceptors.redirect` onto it, and with `fetch` pass `redirect: "manual"` (fetch follows by
// default); each hop would be checked by the guard, but a receiver's redirect is still not ours to follow.
import { isIP } from "node:net";
import { Agent, buildConnector } from "undici";
import { refusedRange, SsrfRefusedError, type AddressPolicy } from "./address-policy.js";
import { guardedLookup } from "./guarded-lookup.js";
import { systemResolveAll, type ResolveAll } from "./resolve.js";

export interface GuardedAgentOptions extends AddressPolicy {
  /** Defaults to dns.lookup with `all: true`; tests make names resolve where they need. */
  resolveAll?: ResolveAll;
  /** Per-connection TCP/TLS options (`timeout` for the connect, `ca`, ...), without `lookup`. */
  connect?: Omit<buildConnector.BuildOptions, "lookup">;
  /** The Agent's own options (`keepAliveTimeout`, `connections`, `headersTimeout`, ...). */
  agent?: Omit<Agent.Options, "connect">;
}

/**
 * An undici Agent that refuses to connect to an address the policy refuses, failing the request
 * with SsrfRefusedError (code ERR_SSRF_REFUSED; with fetch, as its `cause`).
 * @example
 * const agent = createGuardedAgent({ allowPrivate: settings.webhooksAllowPrivate });
 * const answer = await agent.request({ origin: url.origin, path: url.pathname + url.search, method: "POST", headers, body });
 */
export function createGuardedAgent(options: GuardedAgentOptions = {}): Agent {
  const policy: AddressPolicy = { allowPrivate: options.allowPrivate ?? false, ...(options.allow ? { allow: options.allow } : {}) };
  const lookup = guardedLookup(options.resolveAll ?? systemResolveAll, policy);
  const connector = buildConnector({ ...options.connect, lookup });
  const connect: buildConnector.connector = (target, callback) => {
    // undici hands IPv6 literals over without their brackets.
    if (isIP(target.hostname) !== 0) {
      const range = refusedRange(target.hostname, policy);
      if (range !== undefined) return callback(new SsrfRefusedError(target.hostname, target.hostname, range), null);
    }
    connector(target, callback);
  };
  return new Agent({ ...options.agent, connect });
}
