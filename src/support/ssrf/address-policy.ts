// Which addresses an outgoing request may reach, shared by the check at create time and the
// guard at every connection, so both refuse the same addresses for the same reason.
import type { BlockList } from "node:net";
import { classifyAddress, describeAddress, type RefusedRange } from "./classify-address.js";

export interface AddressPolicy {
  /**
   * Let every non-public range through but cloud metadata (`serve --webhooks-allow-private`):
   * local development has receivers on loopback or a LAN, never on the metadata service, which
   * hands out the host's cloud credentials.
   */
  allowPrivate?: boolean;
  /** Addresses let through whatever their range: a known internal receiver an operator named. */
  allow?: BlockList;
}

/** Thrown (through the connection's lookup) when a request would reach a refused address. */
export class SsrfRefusedError extends Error {
  readonly code = "ERR_SSRF_REFUSED";
  constructor(
    readonly hostname: string,
    readonly address: string,
    readonly range: RefusedRange,
  ) {
    super(hostname === address ? `refused to connect to ${describeAddress(address, range)}` : `refused to connect to ${hostname}: it resolves to ${describeAddress(address, range)}`);
    this.name = "SsrfRefusedError";
  }
}

/** The range that refuses `address` under `policy`, or undefined when it may be reached. */
export function refusedRange(address: string, policy: AddressPolicy = {}): RefusedRange | undefined {
  const found = classifyAddress(address);
  if (found === "public") return undefined;
  if (policy.allow?.check(address.replace(/%.*$/, ""), address.includes(":") ? "ipv6" : "ipv4")) return undefined;
  if (policy.allowPrivate && found !== "cloud-metadata") return undefined;
  return found;
}

/** The first of `addresses` that `policy` refuses, with its range. */
export function firstRefused(addresses: readonly string[], policy: AddressPolicy = {}): { address: string; range: RefusedRange } | undefined {
  for (const address of addresses) {
    const range = refusedRange(address, policy);
    if (range !== undefined) return { address, range };
  }
  return undefined;
}
