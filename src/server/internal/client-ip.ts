// Which address an anonymous request is counted under. X-Forwarded-For is believed only as far as
// --trust-proxy says: anyone can send that header, so without it the socket's address is the client.
import { isIP, type BlockList } from "node:net";
import type { TrustProxy } from "../../support/trust-proxy.js";

export type { TrustProxy } from "../../support/trust-proxy.js";

/**
 * The client's address: the socket peer, or with a trusted proxy the X-Forwarded-For entry it
 * vouches for. The walk goes right to left, the only direction that cannot be forged: the
 * rightmost entry was written by the nearest proxy. With N hops the Nth entry from the right
 * (the peer being the first hop); with addresses, the first entry from the right (the peer
 * included) that is not one of ours.
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | null, trust: TrustProxy): string | undefined {
  if (!trust || forwardedFor === null) return peer;
  const chain = forwardedFor.split(",").map((entry) => stripPort(entry.trim())).filter((entry) => entry !== "");
  if ("hops" in trust) return chain[chain.length - trust.hops] ?? chain[0] ?? peer;
  const path = peer === undefined ? chain : [...chain, peer];
  for (let index = path.length - 1; index >= 0; index--) {
    const address = path[index]!;
    if (!isTrusted(trust.addresses, address)) return address;
  }
  // Every hop is ours: the leftmost is as close to the client as we know.
  return path[0];
}

function isTrusted(addresses: BlockList, address: string): boolean {
  const plain = unmapped(address);
  const family = isIP(plain);
  return family !== 0 && addresses.check(plain, family === 6 ? "ipv6" : "ipv4");
}

/**
 * The rate-limit bucket of an anonymous client: its IPv4 address, or its IPv6 /56. Providers
 * hand out a /56 (or /48) per customer, so a client rotating through its own allocation counts
 * as one.
 * @example anonymousBucket("2001:db8:1:2345::7") // "2001:db8:1:2300::/56"
 */
export function anonymousBucket(address: string | undefined): string {
  if (address === undefined) return "unknown";
  const plain = unmapped(address);
  if (isIP(plain) !== 6) return plain;
  const groups = expandIpv6(plain);
  if (!groups) return plain;
  const fourth = (groups[3]! & 0xff00).toString(16);
  return `${groups.slice(0, 3).map((group) => group.toString(16)).join(":")}:${fourth}::/56`;
}

/** `::ffff:10.0.0.1` (an IPv4 client on a dual-stack socket) is `10.0.0.1`. */
function unmapped(address: string): string {
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address;
}

/** `[::1]:443` and `10.0.0.1:80`, as some proxies write them, without the port. */
function stripPort(entry: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  if (bracketed) return bracketed[1]!;
  return /^\d+\.\d+\.\d+\.\d+:\d+$/.test(entry) ? entry.slice(0, entry.lastIndexOf(":")) : entry;
}

function expandIpv6(address: string): number[] | undefined {
  const zoneless = address.split("%")[0]!;
  const [head = "", tail] = zoneless.split("::");
  const parse = (part: string) => (part === "" ? [] : part.split(":"));
  const headGroups = parse(head);
  const tailGroups = tail === undefined ? [] : parse(tail);
  // An embedded IPv4 tail (::ffff:1.2.3.4 in another prefix) is two groups; its value does not matter for /56.
  const count = (groups: string[]) => groups.reduce((sum, group) => sum + (group.includes(".") ? 2 : 1), 0);
  const missing = 8 - count(headGroups) - count(tailGroups);
  const all = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...tailGroups];
  const numbers = all.flatMap((group) => (group.includes(".") ? [0, 0] : [Number.parseInt(group, 16)]));
  return numbers.length === 8 && numbers.every((value) => Number.isInteger(value)) ? numbers : undefined;
}
