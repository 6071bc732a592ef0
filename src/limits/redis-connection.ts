import { messageOf } from "../support/error-text.js";
import { redactUrl } from "../support/http-url.js";
import type { BanPolicy } from "./plans.js";
import { RedisRateLimiter } from "./redis-rate-limiter.js";
import { openRespConnection } from "./resp/resp-connection.js";

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
 * While the connection is lost, every decision fails at once (the request gets its 503 now rather
 * than hanging until Redis returns), and the connection is made again by itself.
 */
export async function openRedisRateLimiter(url: string, options: OpenRedisOptions): Promise<RedisRateLimiter> {
  const name = redactUrl(url);
  let connection;
  try {
    connection = await openRespConnection(url, {
      commandTimeoutMs: COMMAND_TIMEOUT_MS,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      clientName: "petstore",
      onDown: (error) => options.warn(`Redis ${name} unavailable: ${error.message}; rate-limited requests answer 503`),
      onUp: () => options.warn(`Redis ${name} is reachable again`),
    });
    await connection.call(["PING"]);
  } catch (error) {
    await connection?.quit();
    throw new Error(`cannot connect to Redis ${name}: ${messageOf(error)}`, { cause: error });
  }
  return new RedisRateLimiter(connection, { now: options.now, ban: options.ban, name });
}
