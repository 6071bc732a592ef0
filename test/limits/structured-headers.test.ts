// The structured fields the server sends, read by a maintained RFC 9651 parser (structured-headers)
// as the type each one is: RateLimit and RateLimit-Policy are Lists of Strings with parameters
// (draft-ietf-httpapi-ratelimit-headers), Deprecation an Item holding a Date (RFC 9745). Each value
// must also be the parser's own serialisation of what it read: the canonical syntax, nothing looser.
import { parseItem, parseList, serializeItem, serializeList, type List } from "structured-headers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET_PET_DEPRECATED_AT } from "../../src/contract/constants.js";
import { createKey, startTestServer, testClock, type TestServer } from "../helpers/test-server.js";

let server: TestServer;
beforeAll(async () => {
  // A clock that stands still: the 429 cannot miss because a minute turned between two requests.
  server = await startTestServer({ now: testClock().now });
});
afterAll(() => server.close());

/** The windows of a RateLimit or RateLimit-Policy list: name -> its parameters. */
function windows(value: string): Record<string, Record<string, unknown>> {
  const list: List = parseList(value);
  expect(serializeList(list)).toBe(value);
  return Object.fromEntries(
    list.map(([item, parameters]) => {
      expect(typeof item).toBe("string");
      return [item as string, Object.fromEntries(parameters)];
    }),
  );
}

describe("RateLimit and RateLimit-Policy, as RFC 9651 Lists", () => {
  it("on a 200: both windows, q and w in the policy, r and t now, r matching X-RateLimit-Remaining", async () => {
    const { key } = await createKey(server, { plan: "enterprise", name: "sf", perMinute: 5, perDay: 50 });
    const response = await server.api("/pets", { key });
    expect(response.status).toBe(200);
    expect(windows(response.headers.get("ratelimit-policy")!)).toEqual({ minute: { q: 5, w: 60 }, day: { q: 50, w: 86400 } });
    const now = windows(response.headers.get("ratelimit")!);
    expect(Object.keys(now)).toEqual(["minute", "day"]);
    expect(now.minute).toEqual({ r: 4, t: expect.any(Number) });
    expect(now.day).toEqual({ r: 49, t: expect.any(Number) });
    expect(now.minute!.t as number).toBeGreaterThan(0);
    expect(response.headers.get("x-ratelimit-remaining")).toBe("4");
  });

  it("on a 429: the exhausted window at r=0", async () => {
    const { key } = await createKey(server, { plan: "enterprise", name: "sf-429", perMinute: 1, perDay: 50 });
    expect((await server.api("/pets", { key })).status).toBe(200);
    const refused = await server.api("/pets", { key });
    expect(refused.status).toBe(429);
    expect(windows(refused.headers.get("ratelimit")!).minute).toEqual({ r: 0, t: expect.any(Number) });
    expect(windows(refused.headers.get("ratelimit-policy")!).minute).toEqual({ q: 1, w: 60 });
  });

  it("on a 401 without a key: the anonymous windows, parsed alike", async () => {
    const refused = await server.api("/pets", { key: null });
    expect(refused.status).toBe(401);
    expect(Object.keys(windows(refused.headers.get("ratelimit-policy")!))).toEqual(["minute", "day"]);
    expect(Object.keys(windows(refused.headers.get("ratelimit")!))).toEqual(["minute", "day"]);
  });
});

describe("Deprecation, as an RFC 9651 Item holding a Date", () => {
  it("on getPet, 200 and 404 alike: the instant getPet was deprecated", async () => {
    const created = (await (await server.api("/pets", { json: { name: "Old", categoryId: 1 } })).json()) as { id: number };
    for (const path of [`/pets/${created.id}`, "/pets/999999"]) {
      const response = await server.api(path);
      const value = response.headers.get("deprecation")!;
      const item = parseItem(value);
      expect(serializeItem(item)).toBe(value);
      const [date, parameters] = item;
      expect(date).toBeInstanceOf(Date);
      expect((date as Date).getTime()).toBe(GET_PET_DEPRECATED_AT * 1000);
      expect(parameters.size).toBe(0);
    }
  });

  it("the parser refuses what is not a Date, so the checks above can fail", () => {
    expect(() => parseItem("2026-01-01")).toThrow();
    expect(() => parseList('"minute";q=60;w=60,, "day"')).toThrow();
  });
});
