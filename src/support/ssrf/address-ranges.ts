// The address ranges an outgoing request must not reach, by why they are refused. Sources: the
// IANA IPv4 and IPv6 Special-Purpose Address Registries, and the cloud providers' metadata docs.
import { BlockList } from "node:net";

/** Why an address is not public. */
export type RefusedRange =
  | "cloud-metadata"
  | "unspecified"
  | "loopback"
  | "private"
  | "link-local"
  | "multicast"
  | "broadcast"
  | "reserved";

type Family = "ipv4" | "ipv6";
type Table = ReadonlyArray<readonly [RefusedRange, readonly string[]]>;

// First match wins: the metadata addresses sit inside link-local and private ranges, and the
// broadcast address inside 240/4, but their own name is the more useful reason.
const IPV4: Table = [
  // AWS, GCP, Azure, OCI 169.254.169.254; Alibaba 100.100.100.200; Azure's WireServer.
  ["cloud-metadata", ["169.254.169.254/32", "100.100.100.200/32", "168.63.129.16/32"]],
  ["broadcast", ["255.255.255.255/32"]],
  ["unspecified", ["0.0.0.0/8"]],
  ["loopback", ["127.0.0.0/8"]],
  // 100.64/10 is carrier-grade NAT space: private to the operator's network.
  ["private", ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10"]],
  ["link-local", ["169.254.0.0/16"]],
  ["multicast", ["224.0.0.0/4"]],
  // Protocol assignments, documentation, the 6to4 relay anycast, benchmarking, class E.
  ["reserved", ["192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "240.0.0.0/4"]],
];

// IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64 64:ff9b::/96, 6to4) are
// judged by that address (embedded-ipv4.ts), so they are deliberately absent here.
const IPV6: Table = [
  ["cloud-metadata", ["fd00:ec2::254/128"]],
  ["unspecified", ["::/128"]],
  ["loopback", ["::1/128"]],
  // Unique local, the deprecated site-local, and local-use NAT64 (its IPv4 position varies).
  ["private", ["fc00::/7", "fec0::/10", "64:ff9b:1::/48"]],
  ["link-local", ["fe80::/10"]],
  ["multicast", ["ff00::/8"]],
  // Discard-only, IETF protocol assignments (Teredo among them), documentation, SRv6 SIDs.
  ["reserved", ["100::/64", "2001::/23", "2001:db8::/32", "3fff::/20", "5f00::/16"]],
];

const blockLists = (table: Table, family: Family) =>
  table.map(([range, subnets]) => {
    const list = new BlockList();
    for (const subnet of subnets) {
      const [network = "", prefix = ""] = subnet.split("/");
      list.addSubnet(network, Number(prefix), family);
    }
    return [range, list] as const;
  });

const IPV4_LISTS = blockLists(IPV4, "ipv4");
const IPV6_LISTS = blockLists(IPV6, "ipv6");

// Global unicast: IPv6 outside it (and outside the forms above) is unassigned or special.
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet("2000::", 3, "ipv6");

/** The refused range a dotted IPv4 address falls in, or undefined when it is public. */
export function ipv4Range(address: string): RefusedRange | undefined {
  return IPV4_LISTS.find(([, list]) => list.check(address, "ipv4"))?.[0];
}

/** The refused range of an IPv6 address by its own prefix (embedded IPv4 not looked at). */
export function ipv6Range(address: string): RefusedRange | undefined {
  return IPV6_LISTS.find(([, list]) => list.check(address, "ipv6"))?.[0];
}

/** Whether an IPv6 address lies in 2000::/3, the only space handed out for public use. */
export const isGlobalUnicast = (address: string): boolean => GLOBAL_UNICAST.check(address, "ipv6");
