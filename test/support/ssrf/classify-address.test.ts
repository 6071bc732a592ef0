// Every refused range on both families, the IPv6 forms that carry an IPv4 address, and the
// addresses just outside each range that must stay public.
import { describe, expect, it } from "vitest";
import { classifyAddress, describeAddress, embeddedIPv4, type AddressClass } from "../../../src/support/ssrf/index.js";

const CASES: ReadonlyArray<readonly [string, AddressClass]> = [
  // IPv4
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["10.0.0.1", "private"],
  ["10.255.255.255", "private"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["192.168.1.1", "private"],
  ["100.64.0.1", "private"],
  ["100.127.255.255", "private"],
  ["169.254.1.1", "link-local"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["0.0.0.0", "unspecified"],
  ["0.1.2.3", "unspecified"],
  ["169.254.169.254", "cloud-metadata"],
  ["100.100.100.200", "cloud-metadata"],
  ["168.63.129.16", "cloud-metadata"],
  ["255.255.255.255", "broadcast"],
  ["240.0.0.1", "reserved"],
  ["192.0.2.1", "reserved"],
  ["198.51.100.7", "reserved"],
  ["203.0.113.9", "reserved"],
  ["198.18.0.1", "reserved"],
  ["192.0.0.8", "reserved"],
  ["8.8.8.8", "public"],
  ["1.1.1.1", "public"],
  ["172.15.255.255", "public"],
  ["172.32.0.0", "public"],
  ["100.63.255.255", "public"],
  ["100.128.0.0", "public"],
  ["169.253.255.255", "public"],
  ["11.0.0.1", "public"],
  ["223.255.255.255", "public"],
  // IPv6
  ["::1", "loopback"],
  ["0:0:0:0:0:0:0:1", "loopback"],
  ["::", "unspecified"],
  ["fc00::1", "private"],
  ["fd12:3456:789a::1", "private"],
  ["fec0::1", "private"],
  ["fe80::1", "link-local"],
  ["fe80::1%eth0", "link-local"],
  ["febf:ffff::1", "link-local"],
  ["ff02::1", "multicast"],
  ["ff05::1:3", "multicast"],
  ["fd00:ec2::254", "cloud-metadata"],
  ["2001:db8::1", "reserved"],
  ["3fff::1", "reserved"],
  ["100::1", "reserved"],
  ["2001::1", "reserved"],
  ["1::1", "reserved"],
  ["2606:4700:4700::1111", "public"],
  ["2a00:1450:4001:80b::200e", "public"],
  // IPv4-mapped, written dotted and in hex
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["0:0:0:0:0:ffff:7f00:1", "loopback"],
  ["::ffff:10.0.0.1", "private"],
  ["::ffff:a9fe:a9fe", "cloud-metadata"],
  ["::ffff:169.254.1.1", "link-local"],
  ["::ffff:0.0.0.0", "unspecified"],
  ["::ffff:224.0.0.1", "multicast"],
  ["::ffff:255.255.255.255", "broadcast"],
  ["::ffff:8.8.8.8", "public"],
  // IPv4-compatible (deprecated)
  ["::127.0.0.1", "loopback"],
  ["::7f00:1", "loopback"],
  ["::a00:1", "private"],
  ["::8.8.8.8", "public"],
  // NAT64
  ["64:ff9b::127.0.0.1", "loopback"],
  ["64:ff9b::a00:1", "private"],
  ["64:ff9b::c0a8:101", "private"],
  ["64:ff9b::a9fe:a9fe", "cloud-metadata"],
  ["64:ff9b::808:808", "public"],
  ["64:ff9b:1::a00:1", "private"],
  // 6to4
  ["2002:7f00:1::1", "loopback"],
  ["2002:a00:1::", "private"],
  ["2002:c0a8:101::1", "private"],
  ["2002:a9fe:a9fe::", "cloud-metadata"],
  ["2002:808:808::1", "public"],
];

describe("classifyAddress", () => {
  it.each(CASES)("%s is %s", (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it("throws for what is not an IP address, rather than calling it public", () => {
    for (const text of ["localhost", "", "127.1", "::ffff:127.0.0.1.1", "[::1]"]) {
      expect(() => classifyAddress(text), text).toThrow(TypeError);
    }
  });
});

describe("embeddedIPv4", () => {
  it.each([
    ["::ffff:7f00:1", { ipv4: "127.0.0.1", via: "mapped" }],
    ["::ffff:192.168.0.1", { ipv4: "192.168.0.1", via: "mapped" }],
    ["::a00:1", { ipv4: "10.0.0.1", via: "compatible" }],
    ["64:ff9b::a9fe:a9fe", { ipv4: "169.254.169.254", via: "nat64" }],
    ["2002:c0a8:101:0:1:2:3:4", { ipv4: "192.168.1.1", via: "6to4" }],
  ])("%s carries %o", (address, expected) => {
    expect(embeddedIPv4(address)).toEqual(expected);
  });

  it("finds none in a plain IPv6 or an IPv4 address", () => {
    expect(embeddedIPv4("2606:4700:4700::1111")).toBeUndefined();
    expect(embeddedIPv4("64:ff9b:0:1::a00:1")).toBeUndefined();
    expect(embeddedIPv4("10.0.0.1")).toBeUndefined();
  });
});

describe("describeAddress", () => {
  it("names the range, and the IPv4 address an IPv6 form carries", () => {
    expect(describeAddress("10.0.0.1", "private")).toBe("10.0.0.1, a private address");
    expect(describeAddress("::ffff:a00:1", "private")).toBe("::ffff:a00:1 (IPv4 10.0.0.1, mapped), a private address");
    expect(describeAddress("2002:7f00:1::1", "loopback")).toBe("2002:7f00:1::1 (IPv4 127.0.0.1, 6to4), a loopback address");
    expect(describeAddress("fd00:ec2::254", "cloud-metadata")).toBe("fd00:ec2::254, a cloud metadata address");
  });
});
