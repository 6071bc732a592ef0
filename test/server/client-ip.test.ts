// --trust-proxy: which X-Forwarded-For entry is the client, and the bucket an anonymous client is counted in.
import { describe, expect, it } from "vitest";
import { anonymousBucket, clientAddress } from "../../src/server/internal/client-ip.js";
import { parseTrustProxy } from "../../src/support/trust-proxy.js";

describe("clientAddress walks X-Forwarded-For from the right", () => {
  it.each([
    // [trust, peer, X-Forwarded-For, client]
    [undefined, "10.0.0.9", "6.6.6.6", "10.0.0.9"],
    ["1", "10.0.0.9", "6.6.6.6, 203.0.113.7", "203.0.113.7"],
    ["2", "10.0.0.9", "6.6.6.6, 203.0.113.7, 10.0.0.8", "203.0.113.7"],
    // Fewer entries than hops: the leftmost is the closest we know.
    ["3", "10.0.0.9", "203.0.113.7", "203.0.113.7"],
    ["10.0.0.0/8", "10.0.0.9", "6.6.6.6, 203.0.113.7, 10.0.0.8", "203.0.113.7"],
    ["10.0.0.0/8", "192.0.2.1", "6.6.6.6", "192.0.2.1"],
    ["10.0.0.0/8,::1", "::1", "[2001:db8::5]:443, 10.1.2.3", "2001:db8::5"],
    ["127.0.0.1", "::ffff:127.0.0.1", "198.51.100.4:5555", "198.51.100.4"],
  ] as const)("trust %s, peer %s, X-Forwarded-For %s: %s", (trust, peer, header, client) => {
    expect(clientAddress(peer, header, trust === undefined ? undefined : parseTrustProxy(trust))).toBe(client);
  });

  it("uses the peer when the header is absent", () => {
    expect(clientAddress("10.0.0.9", null, parseTrustProxy("1"))).toBe("10.0.0.9");
  });

  it.each(["0", "abc", "10.0.0.0/33", "10.0.0.0/", "fd00::/129", ""])("refuses --trust-proxy %j", (spec) => {
    expect(() => parseTrustProxy(spec)).toThrow(/--trust-proxy/);
  });
});

describe("anonymousBucket", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2345::7", "2001:db8:1:2300::/56"],
    ["2001:db8:1:23ff:aaaa:bbbb:cccc:dddd", "2001:db8:1:2300::/56"],
    ["::1", "0:0:0:0::/56"],
    [undefined, "unknown"],
  ] as const)("%s counts as %s", (address, bucket) => {
    expect(anonymousBucket(address)).toBe(bucket);
  });
});
