// The lookup a guarded connection resolves its host with: it checks every address the name has
// at that moment, so a name that resolved to a public address when it was registered and to
// 127.0.0.1 now (DNS rebinding) is refused before any packet leaves.
import type { LookupAddress, LookupOptions } from "node:dns";
import type { LookupFunction } from "node:net";
import { firstRefused, SsrfRefusedError, type AddressPolicy } from "./address-policy.js";
import type { ResolveAll, ResolvedAddress } from "./resolve.js";

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net.connect / tls.connect that answers only when every address of the name may
 * be reached, else fails the connection with SsrfRefusedError. A name with one refused address
 * among public ones is refused whole: the check at create time asks the same of it.
 */
export function guardedLookup(resolveAll: ResolveAll, policy: AddressPolicy): LookupFunction {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    resolveAll(hostname).then(
      (found) => answer(hostname, found, options, policy, callback),
      (error: NodeJS.ErrnoException) => callback(error, ""),
    );
  };
}

function answer(hostname: string, found: readonly ResolvedAddress[], options: LookupOptions, policy: AddressPolicy, callback: LookupCallback): void {
  const refused = firstRefused(
    found.map((entry) => entry.address),
    policy,
  );
  if (refused !== undefined) return callback(new SsrfRefusedError(hostname, refused.address, refused.range), "");
  // net asks for one family, or for all addresses when it races IPv4 and IPv6 (autoSelectFamily).
  const wanted = found.filter((entry) => !options.family || entry.family === options.family);
  if (wanted.length === 0) return callback(notFound(hostname), "");
  if (options.all) return callback(null, wanted.map(({ address, family }) => ({ address, family })));
  const [first] = wanted as [ResolvedAddress];
  callback(null, first.address, first.family);
}

function notFound(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND", hostname });
}
