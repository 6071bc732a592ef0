// `serve`'s engine URLs, checked before anything loads: a typo is a usage error, not a file
// named "mysql:" or a connection that hangs.
import { parseUrlWithProtocol } from "../../support/http-url.js";
import { UsageError } from "../errors.js";

interface UrlKind {
  flag: string;
  what: string;
  protocols: readonly string[];
}

const DB_URL: UrlKind = { flag: "--db", what: "a file path or a postgres://[user@]host[:port]/database URL", protocols: ["postgres:", "postgresql:"] };
const REDIS_URL: UrlKind = { flag: "--redis", what: "a redis://[:password@]host[:port][/db] URL", protocols: ["redis:", "rediss:"] };

/** A path, or a URL PostgreSQL can be reached with; any other scheme is a mistake, not a file name. */
export function checkDb(db: string): void {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(db)) checkUrl(db, DB_URL);
}

export function checkRedis(redis: string): void {
  const url = checkUrl(redis, REDIS_URL);
  if (!/^\/?(\d+)?$/.test(url.pathname)) throw new UsageError(`--redis must be ${REDIS_URL.what}: "${url.pathname}" is not a database number`);
}

function checkUrl(value: string, kind: UrlKind): URL {
  const url = parseUrlWithProtocol(value, kind.protocols);
  if (!url) {
    if (!URL.canParse(value)) throw new UsageError(`${kind.flag} must be ${kind.what}; this URL cannot be parsed`);
    throw new UsageError(`${kind.flag} must be ${kind.what}, not ${new URL(value).protocol}//...`);
  }
  // postgres:///db?host=/run/postgresql names a Unix socket instead of a host.
  if (url.hostname === "" && !url.searchParams.has("host")) {
    throw new UsageError(`${kind.flag} must be ${kind.what}; the host is missing`);
  }
  return url;
}
