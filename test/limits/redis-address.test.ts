// What a --redis URL names: host, port, TLS, credentials and database.
import { describe, expect, it } from "vitest";
import { redisAddress } from "../../src/limits/resp/redis-address.js";

describe("redisAddress", () => {
  it.each([
    ["redis://127.0.0.1", { host: "127.0.0.1", port: 6379, tls: false, username: undefined, password: undefined, db: 0 }],
    ["redis://cache:6380/2", { host: "cache", port: 6380, tls: false, username: undefined, password: undefined, db: 2 }],
    ["rediss://:s%3Acret@cache.example/15", { host: "cache.example", port: 6379, tls: true, username: undefined, password: "s:cret", db: 15 }],
    ["redis://limiter:pw@[::1]:7000/", { host: "::1", port: 7000, tls: false, username: "limiter", password: "pw", db: 0 }],
  ])("%s", (url, address) => {
    expect(redisAddress(url)).toEqual(address);
  });

  it.each([
    ["http://cache:6379", /not a redis:\/\/ or rediss:\/\/ URL/],
    ["redis://cache:6379/two", /the database in a Redis URL is a number/],
  ])("refuses %s", (url, message) => {
    expect(() => redisAddress(url)).toThrow(message);
  });
});
