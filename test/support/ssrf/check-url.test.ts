// The check of a webhook URL when it is registered: form first, then every address of its host.
import { BlockList } from "node:net";
import { describe, expect, it } from "vitest";
import { checkOutgoingUrl, MAX_URL_LENGTH, type ResolveAll } from "../../../src/support/ssrf/index.js";

/** A resolver that knows a few names, as a zone file would. */
const zone =
  (names: Record<string, string[]>): ResolveAll =>
  async (hostname) => {
    const addresses = names[hostname];
    if (addresses === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
const noResolver: ResolveAll = async (hostname) => {
  throw new Error(`a literal address must not be resolved, yet ${hostname} was`);
};
const resolveAll = zone({
  "hooks.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
  "internal.example.com": ["10.0.0.5"],
  "mixed.example.com": ["93.184.215.14", "127.0.0.1"],
  "mapped.example.com": ["::ffff:169.254.169.254"],
  "metadata.google.internal": ["169.254.169.254"],
  "empty.example.com": [],
});

const reasonOf = async (url: string, options = {}) => {
  const check = await checkOutgoingUrl(url, { resolveAll, ...options });
  return check.ok ? "ok" : check.reason;
};

describe("checkOutgoingUrl: the URL's form", () => {
  it("accepts https and http URLs whose host resolves only to public addresses", async () => {
    const check = await checkOutgoingUrl("https://hooks.example.com/petstore?x=1", { resolveAll });
    expect(check).toEqual({ ok: true, url: new URL("https://hooks.example.com/petstore?x=1"), addresses: ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"] });
    expect(await reasonOf("http://hooks.example.com:8080/")).toBe("ok");
  });

  it.each([
    ["ftp://hooks.example.com/", "the URL's scheme must be https: or http:, not ftp:"],
    ["file:///etc/passwd", "the URL's scheme must be https: or http:, not file:"],
    ["gopher://127.0.0.1:6379/_FLUSHALL", "the URL's scheme must be https: or http:, not gopher:"],
    ["hooks.example.com/petstore", "the URL is not an absolute URL (https://host/path)"],
    ["", "the URL is not an absolute URL (https://host/path)"],
  ])("refuses %j", async (url, reason) => {
    expect(await reasonOf(url)).toBe(reason);
  });

  it("refuses user info, without quoting the secret", async () => {
    for (const url of ["https://user:s3cret@hooks.example.com/", "https://user@hooks.example.com/", "https://:s3cret@hooks.example.com/"]) {
      const reason = await reasonOf(url);
      expect(reason).toBe("the URL must not carry credentials (user info before the host); send them another way");
      expect(reason).not.toContain("s3cret");
    }
  });

  it("takes 2,048 characters, not 2,049", async () => {
    const base = "https://hooks.example.com/";
    const longest = base + "a".repeat(MAX_URL_LENGTH - base.length);
    expect(longest).toHaveLength(2048);
    expect(await reasonOf(longest)).toBe("ok");
    expect(await reasonOf(`${longest}a`)).toBe("the URL is 2049 characters long; at most 2048 are allowed");
  });
});

describe("checkOutgoingUrl: the host's addresses", () => {
  it.each([
    ["http://127.0.0.1:8080/", "the URL's host is 127.0.0.1, a loopback address; only public addresses are allowed"],
    ["http://2130706433/", "the URL's host is 127.0.0.1, a loopback address; only public addresses are allowed"],
    ["http://0x7f.1/", "the URL's host is 127.0.0.1, a loopback address; only public addresses are allowed"],
    ["http://0177.0.0.1/", "the URL's host is 127.0.0.1, a loopback address; only public addresses are allowed"],
    ["http://127.0.0.1./", "the URL's host is 127.0.0.1, a loopback address; only public addresses are allowed"],
    ["http://[::1]/", "the URL's host is ::1, a loopback address; only public addresses are allowed"],
    ["http://[::ffff:127.0.0.1]/", "the URL's host is ::ffff:7f00:1 (IPv4 127.0.0.1, mapped), a loopback address; only public addresses are allowed"],
    ["http://[64:ff9b::10.1.2.3]/", "the URL's host is 64:ff9b::a01:203 (IPv4 10.1.2.3, nat64), a private address; only public addresses are allowed"],
    ["http://[2002:c0a8:101::1]/", "the URL's host is 2002:c0a8:101::1 (IPv4 192.168.1.1, 6to4), a private address; only public addresses are allowed"],
    ["http://[fe80::1]/", "the URL's host is fe80::1, a link-local address; only public addresses are allowed"],
    ["http://[fd00:ec2::254]/latest/meta-data/", "the URL's host is fd00:ec2::254, a cloud metadata address; only public addresses are allowed"],
    ["http://169.254.169.254/latest/meta-data/", "the URL's host is 169.254.169.254, a cloud metadata address; only public addresses are allowed"],
    ["http://0.0.0.0/", "the URL's host is 0.0.0.0, an unspecified address; only public addresses are allowed"],
    ["http://[::]/", "the URL's host is ::, an unspecified address; only public addresses are allowed"],
    ["http://224.0.0.251/", "the URL's host is 224.0.0.251, a multicast address; only public addresses are allowed"],
    ["http://255.255.255.255/", "the URL's host is 255.255.255.255, the broadcast address; only public addresses are allowed"],
    ["http://192.0.2.1/", "the URL's host is 192.0.2.1, a reserved or documentation address; only public addresses are allowed"],
  ])("refuses the literal address in %s without resolving it", async (url, reason) => {
    expect(await reasonOf(url, { resolveAll: noResolver })).toBe(reason);
  });

  it("accepts a public literal address without resolving it", async () => {
    expect(await reasonOf("https://8.8.8.8/", { resolveAll: noResolver })).toBe("ok");
    expect(await reasonOf("https://[2606:4700:4700::1111]/", { resolveAll: noResolver })).toBe("ok");
  });

  it.each([
    ["https://internal.example.com/", "the URL's host internal.example.com resolves to 10.0.0.5, a private address; only public addresses are allowed"],
    ["https://mixed.example.com/", "the URL's host mixed.example.com resolves to 127.0.0.1, a loopback address; only public addresses are allowed"],
    ["https://mapped.example.com/", "the URL's host mapped.example.com resolves to ::ffff:169.254.169.254 (IPv4 169.254.169.254, mapped), a cloud metadata address; only public addresses are allowed"],
    ["http://metadata.google.internal/", "the URL's host metadata.google.internal resolves to 169.254.169.254, a cloud metadata address; only public addresses are allowed"],
    ["https://nowhere.example.com/", "the URL's host nowhere.example.com does not resolve (no such name)"],
    ["https://empty.example.com/", "the URL's host empty.example.com does not resolve to any address"],
  ])("refuses %s by what its name resolves to", async (url, reason) => {
    expect(await reasonOf(url)).toBe(reason);
  });

  it("refuses localhost through the system resolver (/etc/hosts)", async () => {
    const check = await checkOutgoingUrl("http://localhost:3000/hook");
    expect(check).toMatchObject({ ok: false, temporary: false });
    expect(check.ok ? "" : check.reason).toMatch(/^the URL's host localhost resolves to (127\.0\.0\.1|::1), a loopback address; only public addresses are allowed$/);
  });

  it("calls a resolver failure other than no such name temporary, and names its code", async () => {
    const failing: ResolveAll = async () => {
      throw Object.assign(new Error("getaddrinfo EAI_AGAIN hooks.example.com"), { code: "EAI_AGAIN" });
    };
    expect(await checkOutgoingUrl("https://hooks.example.com/", { resolveAll: failing })).toEqual({
      ok: false,
      reason: "the URL's host hooks.example.com could not be resolved now (EAI_AGAIN); try again",
      temporary: true,
    });
  });
});

describe("checkOutgoingUrl: the policy", () => {
  it("with allowPrivate, accepts loopback and private hosts but still refuses cloud metadata", async () => {
    expect(await reasonOf("http://127.0.0.1:8080/", { allowPrivate: true })).toBe("ok");
    expect(await reasonOf("http://localhost:8080/", { allowPrivate: true, resolveAll: undefined })).toBe("ok");
    expect(await reasonOf("https://internal.example.com/", { allowPrivate: true })).toBe("ok");
    expect(await reasonOf("http://169.254.169.254/", { allowPrivate: true })).toBe("the URL's host is 169.254.169.254, a cloud metadata address; only public addresses are allowed");
    expect(await reasonOf("http://metadata.google.internal/", { allowPrivate: true })).toMatch(/a cloud metadata address/);
  });

  it("accepts the addresses of an allow list, and only those", async () => {
    const allow = new BlockList();
    allow.addAddress("10.0.0.5");
    expect(await reasonOf("https://internal.example.com/", { allow })).toBe("ok");
    expect(await reasonOf("http://10.0.0.6/", { allow })).toMatch(/10\.0\.0\.6, a private address/);
  });
});
