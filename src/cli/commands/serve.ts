import type { Command } from "commander";
// Type-only: the server module itself is imported lazily, by the action.
import type { ServeOptions } from "../../server/serve.js";
import type { CliContext } from "../context.js";
import { UsageError } from "../errors.js";

interface ServeFlags {
  port?: string;
  host?: string;
  db?: string;
  redis?: string;
  config?: string;
  quiet?: boolean;
}

const DEFAULTS = { port: "3000", host: "127.0.0.1", db: "./petstore.json" };

export function registerServe(program: Command, ctx: CliContext, setExitCode: (code: number) => void): void {
  program
    .command("serve")
    .description("Run the API server over a lowdb JSON file, or PostgreSQL and Redis")
    .option("--port <port>", `port to listen on; 0 picks a free one (env PETSTORE_PORT, default ${DEFAULTS.port})`)
    .option("--host <host>", `address to bind (env PETSTORE_HOST, default ${DEFAULTS.host})`)
    .option(
      "--db <file|url>",
      `database file, created when absent, or a postgres:// URL (env PETSTORE_DB, default ${DEFAULTS.db})`,
    )
    .option("--redis <url>", "redis:// URL for rate limits shared by several instances (env PETSTORE_REDIS_URL)")
    .option("--config <file>", "JSON file overriding plan limits and the ban policy (env PETSTORE_SERVE_CONFIG)")
    .option("--quiet", "do not log requests to stderr")
    .addHelpText(
      "after",
      "\nExamples:\n  $ petstore serve\n  $ PETSTORE_ADMIN_KEY=... petstore serve --port 8080 --db /var/lib/petstore/db.json\n" +
        "  $ petstore serve --db postgres://petstore@db.internal/petstore --redis redis://cache.internal:6379/0\n",
    )
    .action(async (flags: ServeFlags) => {
      const options = resolveServeOptions(flags, ctx.env);
      const { runServe } = await import("../../server/serve.js");
      setExitCode(await runServe(options, { stdout: ctx.io.stdout, stderr: ctx.io.stderr }));
    });
}

/** Flags win over the environment, which wins over the defaults. */
export function resolveServeOptions(flags: ServeFlags, env: CliContext["env"]): ServeOptions {
  const port = flags.port ?? env.PETSTORE_PORT ?? DEFAULTS.port;
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) {
    throw new UsageError(`--port must be an integer from 0 to 65535, got "${port}"`);
  }
  const host = flags.host ?? env.PETSTORE_HOST ?? DEFAULTS.host;
  if (host.trim() === "") throw new UsageError("--host must not be empty");
  const db = flags.db ?? env.PETSTORE_DB ?? DEFAULTS.db;
  if (db.trim() === "") throw new UsageError("--db must not be empty");
  checkDb(db);
  const redis = flags.redis ?? (env.PETSTORE_REDIS_URL || undefined);
  if (redis !== undefined) checkRedis(redis);
  const adminKey = env.PETSTORE_ADMIN_KEY || undefined;
  if (adminKey !== undefined && adminKey.length < 24) {
    throw new UsageError("PETSTORE_ADMIN_KEY must be at least 24 characters long");
  }
  return {
    port: Number(port),
    host,
    db,
    redis,
    configFile: flags.config ?? (env.PETSTORE_SERVE_CONFIG || undefined),
    quiet: flags.quiet === true,
    adminKey,
  };
}

const DB_URL = { flag: "--db", what: "a file path or a postgres://[user@]host[:port]/database URL", protocols: ["postgres:", "postgresql:"] };
const REDIS_URL = { flag: "--redis", what: "a redis://[:password@]host[:port][/db] URL", protocols: ["redis:", "rediss:"] };

/** A path, or a URL PostgreSQL can be reached with; any other scheme is a mistake, not a file name. */
function checkDb(db: string): void {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(db)) checkUrl(db, DB_URL);
}

function checkRedis(redis: string): void {
  const url = checkUrl(redis, REDIS_URL);
  if (!/^\/?(\d+)?$/.test(url.pathname)) throw new UsageError(`--redis must be ${REDIS_URL.what}: "${url.pathname}" is not a database number`);
}

function checkUrl(value: string, kind: typeof DB_URL): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${kind.flag} must be ${kind.what}; this URL cannot be parsed`);
  }
  if (!kind.protocols.includes(url.protocol.toLowerCase())) {
    throw new UsageError(`${kind.flag} must be ${kind.what}, not ${url.protocol}//...`);
  }
  // postgres:///db?host=/run/postgresql names a Unix socket instead of a host.
  if (url.hostname === "" && !url.searchParams.has("host")) {
    throw new UsageError(`${kind.flag} must be ${kind.what}; the host is missing`);
  }
  return url;
}
