// Where a redis:// or rediss:// URL points, and with what credentials and database.

export interface RedisAddress {
  host: string;
  port: number;
  /** rediss:// : TLS, with the host's certificate checked against the system's CAs (and NODE_EXTRA_CA_CERTS). */
  tls: boolean;
  /** An ACL user (Redis 6+); with only a password, Redis's `default` user. */
  username?: string;
  password?: string;
  /** The database number, from the URL's path (`/3`); 0 without one. */
  db: number;
}

const DEFAULT_PORT = 6379;

/** @example redisAddress("redis://:secret@cache:6380/2") → { host: "cache", port: 6380, password: "secret", db: 2, tls: false } */
export function redisAddress(url: string): RedisAddress {
  const parsed = new URL(url);
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") throw new Error(`not a redis:// or rediss:// URL: ${parsed.protocol}`);
  const path = parsed.pathname.replace(/^\/+/, "");
  if (path !== "" && !/^\d+$/.test(path)) throw new Error(`the database in a Redis URL is a number (/0, /1, ...), not /${path}`);
  return {
    // IPv6 literals come bracketed from the URL parser; sockets want them bare.
    host: parsed.hostname.replace(/^\[|\]$/g, "") || "127.0.0.1",
    port: parsed.port === "" ? DEFAULT_PORT : Number(parsed.port),
    tls: parsed.protocol === "rediss:",
    username: parsed.username === "" ? undefined : decodeURIComponent(parsed.username),
    password: parsed.password === "" ? undefined : decodeURIComponent(parsed.password),
    db: path === "" ? 0 : Number(path),
  };
}
