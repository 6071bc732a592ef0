// The outer layer of the server: the only module that knows the db path, listhen, signals
// and the lock. Everything below it is built from injected parts.
import { API_PREFIX } from "../contract/constants.js";
import { messageOf } from "../support/error-text.js";
import { loadServeConfig } from "../limits/config.js";
import { defaultLimitsConfig, limitsFor } from "../limits/plans.js";
import { createApp } from "./app.js";
import { environmentAdminKey, ensureAdminKey } from "./keys/admin-keys.js";
import { listenStrict } from "./listen.js";
import { openBackends } from "./open-backends.js";
import { createLogger, type LogSink } from "./request-log.js";
import type { ServeTls } from "./internal/tls.js";

export type { ServeTls } from "./internal/tls.js";

export interface ServeOptions {
  port: number;
  host: string;
  /** A lowdb file path, or a postgres:// URL. */
  db: string;
  /** A redis:// URL for the rate-limit counters shared by several instances. */
  redis?: string;
  configFile: string | undefined;
  quiet: boolean;
  adminKey: string | undefined;
  trustProxy?: boolean;
  /** Serve HTTPS instead of HTTP: listhen's self-signed certificate, or PEM files. */
  tls?: ServeTls;
  /** The clock for rate-limit windows and timestamps; tests move it instead of sleeping. */
  now?: () => number;
}

export interface ServeIO {
  stdout: LogSink;
  stderr: LogSink;
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:3000/v1 */
  baseUrl: string;
  origin: string;
  /** Graceful stop: finish in-flight requests, persist counters and data, release the lock. */
  close(): Promise<void>;
}

/** Opens the db, builds the app and listens; resolves once it accepts connections. */
export async function startServer(options: ServeOptions, io: ServeIO): Promise<RunningServer> {
  const now = options.now ?? Date.now;
  const logger = createLogger(io.stderr, { quiet: options.quiet, now });
  const limits = options.configFile ? await loadServeConfig(options.configFile) : defaultLimitsConfig();
  const { store, limiter, description } = await openBackends({
    db: options.db,
    redis: options.redis,
    ban: limits.ban,
    now,
    warn: (message) => logger.warn(message),
  });
  try {
    const environmentAdmin = options.adminKey ? environmentAdminKey(options.adminKey, now) : undefined;
    const app = createApp({
      pets: store.pets,
      keys: store.keys,
      idempotency: store.idempotency,
      limiter,
      limitsOf: (key) => limitsFor(key.admin ? "admin" : key.plan, key.limits, limits),
      anonymousLimits: limits.anonymous,
      environmentAdmin,
      trustProxy: options.trustProxy ?? false,
      logger,
      now,
    });
    const listener = await listenStrict(app, { port: options.port, host: options.host, tls: options.tls });
    const baseUrl = `${listener.origin}${API_PREFIX}`;
    try {
      // Only once listening: a start that fails (a port in use) must not store a key nobody saw.
      if (!environmentAdmin) await ensureAdminKey(store.keys, logger, now, baseUrl);
    } catch (error) {
      await listener.close();
      throw error;
    }
    // Last, so that whoever waits for this line finds the server ready, bootstrap key included.
    io.stdout.write(`petstore listening on ${baseUrl} (${description})\n`);
    for (const origin of listener.networkOrigins) io.stdout.write(`petstore also listening on ${origin}${API_PREFIX}\n`);
    return {
      baseUrl,
      origin: listener.origin,
      close: async () => {
        await listener.close();
        await limiter.close();
        await store.close();
      },
    };
  } catch (error) {
    await limiter.close();
    await store.close();
    throw error;
  }
}

export interface SignalSource {
  once(signal: "SIGINT" | "SIGTERM", listener: () => void): unknown;
}

/** `petstore serve`: runs until SIGINT or SIGTERM, then stops gracefully; returns the exit code. */
export async function runServe(options: ServeOptions, io: ServeIO, signals: SignalSource = process): Promise<number> {
  // Listen for the signals before starting: a supervisor may send SIGTERM the moment the
  // listening line appears, and Node's default action would then skip the graceful stop.
  const stopSignal = new Promise<string>((done) => {
    signals.once("SIGINT", () => done("SIGINT"));
    signals.once("SIGTERM", () => done("SIGTERM"));
  });
  let server: RunningServer;
  try {
    server = await startServer(options, io);
  } catch (error) {
    io.stderr.write(`petstore serve: ${messageOf(error)}\n`);
    return 1;
  }
  const signal = await stopSignal;
  io.stderr.write(`${signal}: finishing in-flight requests, then stopping\n`);
  await server.close();
  io.stderr.write("stopped\n");
  return 0;
}
