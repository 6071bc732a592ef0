// IPv6 forms that carry an IPv4 address a host may end up reaching: a check of the IPv6 ranges
// alone would let ::ffff:127.0.0.1 or 64:ff9b::a00:1 through as "not loopback, not private".
import { isIPv6 } from "node:net";

/** How an IPv6 address carries an IPv4 one. */
export type Embedding = "mapped" | "compatible" | "nat64" | "6to4";

export interface EmbeddedIPv4 {
  ipv4: string;
  via: Embedding;
}

/**
 * The IPv4 address inside an IPv6 one, when it has one of the forms hosts and gateways translate.
 * @example embeddedIPv4("::ffff:7f00:1") // { ipv4: "127.0.0.1", via: "mapped" }
 */
export function embeddedIPv4(address: string): EmbeddedIPv4 | undefined {
  const groups = ipv6Groups(address);
  if (groups === undefined) return undefined;
  const zero = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  if (zero(0, 5) && groups[5] === 0xffff) return { ipv4: ipv4Of(groups[6], groups[7]), via: "mapped" };
  // ::/96, deprecated "IPv4-compatible"; :: and ::1 themselves are classified before this is asked.
  if (zero(0, 6)) return { ipv4: ipv4Of(groups[6], groups[7]), via: "compatible" };
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zero(2, 6)) return { ipv4: ipv4Of(groups[6], groups[7]), via: "nat64" };
  if (groups[0] === 0x2002) return { ipv4: ipv4Of(groups[1], groups[2]), via: "6to4" };
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (zone index ignored), or undefined for anything else. */
export function ipv6Groups(address: string): number[] | undefined {
  const plain = address.replace(/%.*$/, "");
  if (!isIPv6(plain)) return undefined;
  const [head = "", tail] = plain.split("::");
  const parse = (part: string) => (part === "" ? [] : part.split(":").flatMap(groupsOfPart));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const missing = 8 - left.length - right.length;
  return [...left, ...Array.from({ length: missing }, () => 0), ...right];
}

/** One colon-separated part: a hex group, or a trailing dotted IPv4 that stands for two groups. */
function groupsOfPart(part: string): number[] {
  if (!part.includes(".")) return [Number.parseInt(part, 16)];
  const [a = 0, b = 0, c = 0, d = 0] = part.split(".").map(Number);
  return [(a << 8) | b, (c << 8) | d];
}

function ipv4Of(high = 0, low = 0): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}
