// The Redis limiter against the memory one: the same calls must give the same Decisions, field
// for field, because the API tests and docs/api.md describe one behaviour for both engines.
import fc from "fast-check";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KeyLimits } from "../../src/contract/values.js";
import { MemoryRateLimiter } from "../../src/limits/memory-rate-limiter.js";
import type { BanPolicy } from "../../src/limits/plans.js";
import type { Decision } from "../../src/limits/rate-limiter.js";
import { openRedisRateLimiter } from "../../src/limits/redis-connection.js";
import { RedisRateLimiter } from "../../src/limits/redis-rate-limiter.js";
import { openRespConnection, type RespConnection } from "../../src/limits/resp/resp-connection.js";
import { StorageUnavailableError } from "../../src/store/errors.js";
import { unusedTestPort } from "../helpers/test-port.js";
import { freshDatabase } from "../helpers/test-backend.js";

const NOON = Date.UTC(2025, 5, 10, 12, 0, 0);
const FREE: KeyLimits = { perMinute: 60, perDay: 1_000 };
const BAN: BanPolicy = { threshold: 1, durationSeconds: 900 };

// The limiter's own connection, and ioredis beside it to look at what the scripts left in Redis.
let connection: RespConnection;
let redis: Redis;
let redisUrl: string;
let prefixes = 0;
const connect = () => openRespConnection(redisUrl, { commandTimeoutMs: 2_000, connectTimeoutMs: 5_000 });
beforeAll(async () => {
  redisUrl = (await freshDatabase()).redis;
  connection = await connect();
  redis = new Redis(redisUrl);
});
afterAll(async () => {
  await connection.quit();
  await redis.quit();
});

/** Both limiters on one clock; each consume goes to both and returns both Decisions. */
function pair(ban: BanPolicy = BAN, start = NOON) {
  const clock = { t: start };
  const now = () => clock.t;
  const memory = new MemoryRateLimiter({ now, ban });
  const shared = new RedisRateLimiter(connection, { now, ban, keyPrefix: `test:${++prefixes}:` });
  const take = async (n: number, limits: KeyLimits = FREE, subject = "key:a") => {
    const decisions: { memory: Decision; redis: Decision }[] = [];
    for (let i = 0; i < n; i++) {
      decisions.push({ memory: await memory.consume(subject, limits), redis: await shared.consume(subject, limits) });
    }
    return decisions;
  };
  return { clock, memory, shared, take };
}

const same = (decisions: { memory: Decision; redis: Decision }[]) => {
  for (const { memory, redis } of decisions) expect(redis).toEqual(memory);
  return decisions.map((d) => d.redis);
};

describe("RedisRateLimiter decides exactly like MemoryRateLimiter", () => {
  it("serves the minute limit, then rate_limited with retryAfter to the minute's end", async () => {
    const { clock, take } = pair(BAN, NOON + 30_700);
    const decisions = same(await take(61));
    expect(decisions[0]).toEqual({
      allowed: true,
      windows: [
        { name: "minute", seconds: 60, limit: 60, remaining: 59, resetAt: NOON / 1000 + 60 },
        { name: "day", seconds: 86_400, limit: 1_000, remaining: 999, resetAt: Date.UTC(2025, 5, 11) / 1000 },
      ],
    });
    expect(decisions[60]).toMatchObject({ allowed: false, reason: "rate_limited", retryAfter: 30 });
    clock.t = NOON + 60_000;
    expect(same(await take(1))[0]).toMatchObject({ allowed: true, windows: [{ remaining: 59 }, { remaining: 939 }] });
  });

  it("resets the day at UTC midnight and reports it when the day is exhausted", async () => {
    const midnight = Date.UTC(2025, 5, 11);
    const { clock, take } = pair({ threshold: 100, durationSeconds: 900 }, midnight - 3_600_000);
    const limits = { perMinute: 1_000, perDay: 5 };
    same(await take(5, limits));
    clock.t = midnight - 1;
    expect(same(await take(1, limits))[0]).toMatchObject({ reason: "rate_limited", retryAfter: 1 });
    clock.t = midnight;
    expect(same(await take(1, limits))[0]).toMatchObject({ allowed: true, windows: [{ remaining: 999 }, { remaining: 4 }] });
  });

  it("bans past threshold × limit rejections, counts down, then serves again", async () => {
    const { clock, take } = pair();
    const decisions = same(await take(60 + 61));
    expect(decisions.at(-1)).toMatchObject({ allowed: false, reason: "key_banned", retryAfter: 900 });
    clock.t += 450_400;
    expect(same(await take(1))[0]).toMatchObject({ reason: "key_banned", retryAfter: 450 });
    clock.t = NOON + 900_000;
    expect(same(await take(1))[0]).toMatchObject({ allowed: true, windows: [{ remaining: 59 }, { remaining: 939 }] });
  });

  it("honours a fractional ban threshold and keeps subjects apart", async () => {
    const { take } = pair({ threshold: 1.5, durationSeconds: 60 });
    const limits = { perMinute: 2, perDay: 100 };
    const decisions = same(await take(6, limits, "ip:10.0.0.1"));
    expect(decisions.map((d) => (d.allowed ? "ok" : d.reason))).toEqual(["ok", "ok", "rate_limited", "rate_limited", "rate_limited", "key_banned"]);
    expect(same(await take(1, limits, "ip:10.0.0.2"))[0]?.allowed).toBe(true);
  });

  it("agrees on any sequence of requests, limit changes and clock moves", async () => {
    const step = fc.oneof(
      fc.record({ advance: fc.integer({ min: 0, max: 200_000 }) }),
      fc.record({
        subject: fc.constantFrom("key:a", "key:b", "ip:1"),
        perMinute: fc.integer({ min: 1, max: 4 }),
        perDay: fc.integer({ min: 1, max: 12 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), fc.integer({ min: 0, max: 86_399_999 }), async (steps, offset) => {
        const { clock, take } = pair({ threshold: 1, durationSeconds: 120 }, Date.UTC(2025, 5, 10) + offset);
        for (const s of steps) {
          if ("advance" in s) clock.t += s.advance;
          else same(await take(1, { perMinute: s.perMinute, perDay: s.perDay }, s.subject));
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe("peek: both engines report usage without consuming it", () => {
  it("agrees with the memory limiter, counts nothing, and shows rolled windows and bans", async () => {
    const { clock, memory, shared, take } = pair();
    const peek = async (subject = "key:a") => {
      const usage = { memory: await memory.peek(subject, FREE), redis: await shared.peek(subject, FREE) };
      expect(usage.redis).toEqual(usage.memory);
      return usage.redis;
    };
    const fresh = await peek("key:never-seen");
    expect(fresh.windows.map((w) => w.remaining)).toEqual([60, 1000]);
    await take(3);
    for (let i = 0; i < 5; i++) expect((await peek()).windows.map((w) => w.remaining)).toEqual([57, 997]);
    expect((await peek()).windows[0]).toMatchObject({ name: "minute", limit: 60, resetAt: NOON / 1000 + 60 });
    expect(same(await take(1))[0]?.windows.map((w) => w.remaining)).toEqual([56, 996]);
    clock.t += 60_000;
    expect((await peek()).windows.map((w) => w.remaining)).toEqual([60, 996]);
    same(await take(60 + 61));
    const banned = await peek();
    expect(banned.bannedUntil).toBe(clock.t + 900_000);
    expect(banned.windows[0]?.remaining).toBe(0);
  });
});

describe("RedisRateLimiter in Redis", () => {
  it("with R left, concurrent calls from two limiters (two instances) allow exactly R", async () => {
    const now = () => NOON;
    const ban = { threshold: 1_000, durationSeconds: 900 };
    const keyPrefix = `test:${++prefixes}:`;
    const second = await connect();
    const a = new RedisRateLimiter(connection, { now, ban, keyPrefix });
    const b = new RedisRateLimiter(second, { now, ban, keyPrefix });
    const limits = { perMinute: 10_000, perDay: 200 };
    for (let i = 0; i < 63; i++) await a.consume("key:a", limits);
    const decisions = await Promise.all(Array.from({ length: 400 }, (_, i) => (i % 2 ? a : b).consume("key:a", limits)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(137);
    await second.quit();
  });

  it("keeps one hash per subject that expires after the day window", async () => {
    const keyPrefix = `test:${++prefixes}:`;
    const limiter = new RedisRateLimiter(connection, { now: () => NOON, keyPrefix });
    await limiter.consume("key:a", FREE);
    expect(await redis.hgetall(`${keyPrefix}key:a`)).toEqual({
      m: String(NOON / 60_000),
      ms: "1",
      mr: "0",
      d: String(Math.floor(NOON / 86_400_000)),
      ds: "1",
      dr: "0",
      b: "0",
    });
    // Until the end of the UTC day (12 h) plus a minute.
    expect(await redis.pttl(`${keyPrefix}key:a`)).toBeGreaterThan(12 * 3_600_000);
    expect(await redis.pttl(`${keyPrefix}key:a`)).toBeLessThanOrEqual(12 * 3_600_000 + 60_000);
  });

  it("loads its script again after Redis forgot it (SCRIPT FLUSH)", async () => {
    const limiter = new RedisRateLimiter(connection, { now: () => NOON, keyPrefix: `test:${++prefixes}:` });
    await limiter.consume("key:a", FREE);
    await redis.script("FLUSH");
    expect(await limiter.consume("key:a", FREE)).toMatchObject({ allowed: true, windows: [{ remaining: 58 }, { remaining: 998 }] });
  });

  it("fails closed once its connection is gone: StorageUnavailableError, not an allowed request", async () => {
    const warnings: string[] = [];
    const limiter = await openRedisRateLimiter(redisUrl, { now: () => NOON, warn: (message) => warnings.push(message) });
    await limiter.close();
    await expect(limiter.consume("key:a", FREE)).rejects.toBeInstanceOf(StorageUnavailableError);
  });

  it("refuses to open when nothing listens at the URL, naming it without the password", async () => {
    const url = `redis://:secret@127.0.0.1:${await unusedTestPort()}/3`;
    await expect(openRedisRateLimiter(url, { warn: () => undefined })).rejects.toThrow(
      /^cannot connect to Redis redis:\/\/:\*\*\*@127\.0\.0\.1:\d+\/3: .*ECONNREFUSED/,
    );
  });
});
