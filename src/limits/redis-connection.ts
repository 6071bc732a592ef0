import { Redis } from "ioredis";
import { messageOf } from "../support/error-text.js";
import { redactUrl } from "../support/http-url.js";
import type { BanPolicy } from "./plans.js";
import { RedisRateLimiter } from "./redis-rate-limiter.js";

export interface OpenRedisOptions {
  now?: () => number;
  ban?: BanPolicy;
  /** Told when the connection drops and when it is back. */
  warn: (message: string) => void;
}

// A request waits at most this long for Redis before it is answered 503.
const COMMAND_TIMEOUT_MS = 2_000;
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * Connects to Redis (a redis:// or rediss:// URL; the path selects the database number) and
 * returns the shared rate limiter. Throws, naming the URL without its password, when Redis cannot be reached.
 */
export async function openRedisRateLimiter(url: string, options: OpenRedisOptions): Promise<RedisRateLimiter> {
  const name = redactUrl(url);
  const redis = new Redis(url, {
    lazyConnect: true,
    // Commands fail at once while disconnected instead of queueing: a request gets its 503
    // now rather than hanging until Redis returns.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    connectionName: "petstore",
    // Every request makes one round trip (the rate-limit script): the commands of the requests
    // read in the same tick go out in one write and come back in one read.
    enableAutoPipelining: true,
  });
  let started = false;
  let down = false;
  let lastError: Error | undefined;
  redis.on("error", (error: Error) => {
    lastError = error;
    // A failure to connect at start is thrown below instead.
    if (started && !down) options.warn(`Redis ${name} unavailable: ${error.message}; rate-limited requests answer 503`);
    down = true;
  });
  redis.on("ready", () => {
    if (down) options.warn(`Redis ${name} is reachable again`);
    down = false;
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    // connect() itself only says "Connection is closed"; the error event said why.
    const reason = lastError ?? error;
    throw new Error(`cannot connect to Redis ${name}: ${messageOf(reason)}`, { cause: reason });
  }
  started = true;
  return new RedisRateLimiter(redis, { now: options.now, ban: options.ban, name });
}
