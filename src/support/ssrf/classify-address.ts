// Whether an outgoing request may reach an address: public, or the range that refuses it.
import { isIP } from "node:net";
import { ipv4Range, ipv6Range, isGlobalUnicast, type RefusedRange } from "./address-ranges.js";
import { embeddedIPv4 } from "./embedded-ipv4.js";

export type { RefusedRange } from "./address-ranges.js";
export type AddressClass = "public" | RefusedRange;

/**
 * "public", or the range that refuses the address. IPv6 forms carrying an IPv4 address are
 * judged by that address. Throws a TypeError for anything that is not an IP address.
 * @example classifyAddress("::ffff:7f00:1") === "loopback"
 */
export function classifyAddress(address: string): AddressClass {
  const plain = address.replace(/%.*$/, "");
  const family = isIP(plain);
  if (family === 0) throw new TypeError(`not an IP address: ${JSON.stringify(address)}`);
  if (family === 4) return ipv4Range(plain) ?? "public";
  const own = ipv6Range(plain);
  if (own !== undefined) return own;
  const embedded = embeddedIPv4(plain);
  if (embedded !== undefined) return ipv4Range(embedded.ipv4) ?? "public";
  return isGlobalUnicast(plain) ? "public" : "reserved";
}

const DESCRIPTIONS: Record<RefusedRange, string> = {
  "cloud-metadata": "a cloud metadata address",
  unspecified: "an unspecified address",
  loopback: "a loopback address",
  private: "a private address",
  "link-local": "a link-local address",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
  reserved: "a reserved or documentation address",
};

/**
 * The address and its range in words, for refusals people read.
 * @example describeAddress("::ffff:a00:1") === "::ffff:a00:1 (IPv4 10.0.0.1, mapped), a private address"
 */
export function describeAddress(address: string, range: RefusedRange): string {
  const embedded = isIP(address) === 6 && ipv6Range(address) === undefined ? embeddedIPv4(address) : undefined;
  const carried = embedded === undefined ? "" : ` (IPv4 ${embedded.ipv4}, ${embedded.via})`;
  return `${address}${carried}, ${DESCRIPTIONS[range]}`;
}
