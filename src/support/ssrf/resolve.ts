// Name resolution as the checks see it: every address of a name, injectable so tests can make a
// name resolve to what they need (a public address at create time, loopback at connect time).
import { lookup } from "node:dns/promises";

export interface ResolvedAddress {
  address: string;
  /** 4 or 6. */
  family: number;
}

/** Every address `hostname` resolves to, as the system resolver (`dns.lookup`, /etc/hosts) sees it. */
export type ResolveAll = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** dns.lookup with `all: true`: the resolver that connections use, not a DNS query of its own. */
export const systemResolveAll: ResolveAll = (hostname) => lookup(hostname, { all: true });
