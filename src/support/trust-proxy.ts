// `--trust-proxy`, parsed where both the CLI (to refuse a typo as a usage error) and the server
// can use it. What it is for: src/server/internal/client-ip.ts.
import type { BlockList } from "node:net";

/** How many proxies of ours stand in front, or which addresses are ours; undefined: none. */
export type TrustProxy = { hops: number } | { addresses: BlockList; text: string } | undefined;

/**
 * Parses `--trust-proxy`: a hop count (`1`) or a comma-separated list of addresses and CIDR
 * ranges (`10.0.0.0/8, fd00::/8, 127.0.0.1`). Throws a message fit for a usage error.
 * @example parseTrustProxy("2") // { hops: 2 }
 */
export function parseTrustProxy(spec: string): TrustProxy {
  const text = spec.trim();
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops < 1 || hops > 32) throw new Error(`--trust-proxy hop count must be from 1 to 32, got ${text}`);
    return { hops };
  }
  // node:net at the first list, not at the CLI's start-up: `serve`'s flags are parsed there.
  const { BlockList, isIP } = process.getBuiltinModule("node:net");
  const addresses = new BlockList();
  for (const entry of text.split(",").map((part) => part.trim())) {
    const [address = "", prefix] = entry.split("/");
    const family = isIP(address);
    const bits = prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix);
    if (family === 0 || !Number.isInteger(bits) || bits < 0 || bits > (family === 6 ? 128 : 32) || prefix === "") {
      throw new Error(`--trust-proxy takes a hop count or addresses and CIDR ranges (10.0.0.0/8,::1), got "${entry}"`);
    }
    addresses.addSubnet(address, bits, family === 6 ? "ipv6" : "ipv4");
  }
  return { addresses, text };
}

