// The rate limiter shared by several `petstore serve` instances: the counters and bans live in
// Redis and each decision is one atomic script, so the limits hold exactly across instances.
import { createHash } from "node:crypto";
import type { KeyLimits } from "../contract/values.js";
import { messageOf } from "../support/error-text.js";
import { StorageUnavailableError } from "../support/storage-unavailable.js";
import { BAN_POLICY, type BanPolicy } from "./plans.js";
import type { Decision, RateLimiter, Usage } from "./rate-limiter.js";
import { CONSUME_SCRIPT } from "./redis-consume-script.js";
import type { RespArgument } from "./resp/resp-connection.js";
import type { RespValue } from "./resp/resp-reader.js";
import { retryAfterOf, secondsUntil, usageOf, windowsOf, type SubjectState } from "./subject-state.js";

export interface RedisRateLimiterOptions {
  /** ms since the epoch; Date.now by default. Passed to the script, so every window follows it. */
  now?: () => number;
  ban?: BanPolicy;
  /** Prepended to each subject's Redis key. */
  keyPrefix?: string;
  /** Names the Redis in errors (a URL without its password). */
  name?: string;
}

const KEY_PREFIX = "petstore:limits:";
const SCRIPT_SHA = createHash("sha1").update(CONSUME_SCRIPT).digest("hex");
const OUTCOMES = ["served", "rate_limited", "key_banned"] as const;

type ScriptReply = [outcome: number, ...state: number[]];

/** What the limiter needs of a Redis connection (RespConnection). */
export interface RedisCommands {
  call(args: readonly RespArgument[]): Promise<RespValue>;
  quit(): Promise<void>;
}

/** A key each decision also reads (see alsoRead), and who is told its value. */
interface Rider {
  key: string;
  onValue: (value: string | null) => void;
}

/**
 * Decides like MemoryRateLimiter, with the state in Redis. When Redis cannot answer, consume()
 * rejects with StorageUnavailableError: the limits are not waived for the outage (fail closed).
 */
export class RedisRateLimiter implements RateLimiter {
  readonly #redis: RedisCommands;
  readonly #now: () => number;
  readonly #ban: BanPolicy;
  readonly #keyPrefix: string;
  readonly #name: string;
  #rider: Rider | undefined;

  #closed = false;

  constructor(redis: RedisCommands, options: RedisRateLimiterOptions = {}) {
    this.#redis = redis;
    this.#now = options.now ?? Date.now;
    this.#ban = options.ban ?? BAN_POLICY;
    this.#keyPrefix = options.keyPrefix ?? KEY_PREFIX;
    this.#name = options.name ?? "redis";
  }

  async consume(subject: string, limits: KeyLimits): Promise<Decision> {
    const now = this.#now();
    const key = this.#keyPrefix + subject;
    const rider = this.#rider;
    const ban = this.#ban;
    // numkeys, the keys, then the arguments (see redis-consume-script.ts).
    const args = rider
      ? [2, key, rider.key, now, limits.perMinute, limits.perDay, ban.threshold, ban.durationSeconds * 1000]
      : [1, key, now, limits.perMinute, limits.perDay, ban.threshold, ban.durationSeconds * 1000];
    let reply: ScriptReply;
    try {
      reply = (await this.#evaluate(args)) as ScriptReply;
    } catch (error) {
      throw new StorageUnavailableError(this.#name, messageOf(error));
    }
    rider?.onValue(((reply as unknown[])[8] as string | null | undefined) ?? null);
    return toDecision(reply, limits, now);
  }

  /** One HMGET: reading is atomic on its own, and nothing is written, not even the expiry. */
  async peek(subject: string, limits: KeyLimits): Promise<Usage> {
    const now = this.#now();
    let fields: Array<string | null>;
    try {
      fields = (await this.#redis.call(["HMGET", this.#keyPrefix + subject, "m", "ms", "mr", "d", "ds", "dr", "b"])) as Array<string | null>;
    } catch (error) {
      throw new StorageUnavailableError(this.#name, messageOf(error));
    }
    if (fields[0] === null || fields[0] === undefined) return usageOf(undefined, limits, now);
    const [minute = 0, minuteServed = 0, minuteRejected = 0, day = 0, dayServed = 0, dayRejected = 0, bannedUntil = 0] = fields.map(Number);
    return usageOf({ minute, minuteServed, minuteRejected, day, dayServed, dayRejected, bannedUntil }, limits, now);
  }

  /** The connection, for what else instances share through this Redis (kept listings); closed with the limiter. */
  get connection(): RedisCommands {
    return this.#redis;
  }

  /**
   * Every decision from now on also reads `key` (a string) in its script and tells `onValue`
   * what it found: what instances share can ride on the round trip each request makes anyway.
   * Replies on the connection come in order, so the values told only ever get newer.
   */
  alsoRead(key: string, onValue: (value: string | null) => void): void {
    this.#rider = { key, onValue };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#redis.quit();
  }

  // EVALSHA sends 40 bytes instead of the script; Redis forgets scripts on restart (NOSCRIPT),
  // and EVAL then sends it again, which also caches it for the next calls.
  async #evaluate(args: RespArgument[]): Promise<RespValue> {
    try {
      return await this.#redis.call(["EVALSHA", SCRIPT_SHA, ...args]);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return await this.#redis.call(["EVAL", CONSUME_SCRIPT, ...args]);
    }
  }
}

function toDecision(reply: ScriptReply, limits: KeyLimits, now: number): Decision {
  const [outcome, minute = 0, minuteServed = 0, minuteRejected = 0, day = 0, dayServed = 0, dayRejected = 0, bannedUntil = 0] =
    reply;
  const state: SubjectState = { minute, minuteServed, minuteRejected, day, dayServed, dayRejected, bannedUntil };
  const windows = windowsOf(state, limits);
  switch (OUTCOMES[outcome]) {
    case "served":
      return { allowed: true, windows };
    case "rate_limited":
      return { allowed: false, reason: "rate_limited", retryAfter: retryAfterOf(state, limits, now), windows };
    case "key_banned":
      return { allowed: false, reason: "key_banned", retryAfter: secondsUntil(bannedUntil, now), windows };
    default:
      throw new Error(`unexpected reply from the rate-limit script: ${JSON.stringify(reply)}`);
  }
}
