// The outer layer of the server: the only module that knows the db path, listhen, signals
// and the lock. Everything below it is built from injected parts.
import { API_PREFIX } from "../contract/constants.js";
import { messageOf } from "../support/error-text.js";
import { loadServeConfig } from "../limits/config.js";
import { defaultLimitsConfig, limitsFor } from "../limits/plans.js";
import { createApp } from "./app.js";
import { DOCS_PATH } from "./docs/page.js";
import { environmentAdminKey, ensureAdminKey } from "./keys/admin-keys.js";
import type { FrameworkInternals } from "./internal/framework-internals.js";
import { listenStrict, type HttpListener } from "./listen.js";
import { keepCertificate } from "./internal/tls.js";
import { assertListenable } from "./internal/listen-failure.js";
import { isPostgresUrl, openBackends } from "./open-backends.js";
import { createLogger, type LogSink, type ServerLogger } from "./request-log.js";
import type { TrustProxy } from "./internal/client-ip.js";
import type { ServeTls } from "./internal/tls.js";
import { OutageLog } from "./logging/outage-log.js";
import type { MetricsListener } from "./metrics/metrics-listener.js";
import type { PrometheusMetrics } from "./metrics/prometheus.js";
import { ReloadableLimits } from "./ops/limits-reload.js";
import { checkReadiness, coalescedReadiness, dbDirectoryCheck, type ReadinessCheck } from "./ops/readiness.js";
import type { Store } from "../store/store.js";
import type { RateLimiter } from "../limits/rate-limiter.js";
import type { LimitsConfig } from "../limits/plans.js";
import { EVENT_KEEP_ALIVE_MS, EVENT_RETRY_MS, MAX_STREAMS_PER_KEY, MAX_UNSENT_BYTES } from "../contract/events.js";
import type { EventStreamSettings } from "./events/event-stream.js";
import { StreamRegistry } from "./events/stream-registry.js";
import { eventTicketsFor } from "./events/event-tickets.js";

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
  /** Which X-Forwarded-For entries to believe (--trust-proxy); none when absent. */
  trustProxy?: TrustProxy | boolean;
  /** Log lines as text (default) or JSON objects through pino. */
  logFormat?: "text" | "json";
  /** Serve /metrics on this port of `metricsHost` (127.0.0.1 by default). */
  metricsPort?: number;
  metricsHost?: string;
  /** Serve /metrics on the main port to this bearer token. */
  metricsToken?: string;
  /** Serve HTTPS instead of HTTP: listhen's self-signed certificate, or PEM files. */
  tls?: ServeTls;
  /** The clock for rate-limit windows and timestamps; tests move it instead of sleeping. */
  now?: () => number;
  /** Keep-alive, retry, unsent-bytes and revocation-check settings of event streams; tests shorten them. */
  eventStreams?: Partial<EventStreamSettings>;
  /** Browser origins allowed to call the API (CORS); none by default. */
  corsOrigins?: string[];
  /** The most API keys the store may hold; tests lower it. */
  maxKeys?: number;
  /** PUBLIC_PATHS: none of h3's or srvx's private internals (a test shows the answers are the same). */
  frameworkInternals?: FrameworkInternals;
  /** Signs event-stream tickets (PETSTORE_TICKET_SECRET); the same on every instance of one API. One drawn at start when absent. */
  ticketSecret?: string;
  /** Where links point (--public-url): scheme, host and at most a path, without a trailing slash. */
  publicUrl?: string;
}

export interface ServeIO {
  stdout: LogSink;
  stderr: LogSink;
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:3000/v1 */
  baseUrl: string;
  origin: string;
  /** e.g. http://127.0.0.1:9464, with --metrics-port. */
  metricsOrigin?: string;
  /** The app itself, without the socket: what a request gets, in this process (tests, embedding). */
  fetch(request: Request): Promise<Response>;
  /** SIGHUP: reads the limits file again; false when it was refused (the old limits stay). */
  reloadLimits(): Promise<boolean>;
  /** Graceful stop: finish in-flight requests, persist counters and data, release the lock. */
  close(): Promise<void>;
}

/** Opens the db, builds the app and listens; resolves once it accepts connections. Logs through `logger` when given. */
export async function startServer(options: ServeOptions, io: ServeIO, given?: ServerLogger): Promise<RunningServer> {
  const now = options.now ?? Date.now;
  const logger = given ?? (await chooseLogger(options, io.stderr, now));
  const configFile = options.configFile;
  const initial = configFile ? await loadServeConfig(configFile) : defaultLimitsConfig();
  const limits = new ReloadableLimits(initial, () => (configFile ? loadServeConfig(configFile) : Promise.resolve(defaultLimitsConfig())), logger);
  const metrics = wantsMetrics(options) ? await createMetrics() : undefined;
  // Before the db is opened: an address or port that cannot be had then creates no file.
  await assertListenable(options.host, options.port);
  const { store, limiter, description, listings, dbFile, discard } = await openBackends({
    db: options.db,
    redis: options.redis,
    ban: initial.ban,
    now,
    warn: (message) => logger.warn(message),
    onWrite: metrics ? (write) => metrics.storeWrite(write) : undefined,
  });
  metrics?.watchPets(store);
  let metricsListener: MetricsListener | undefined;
  try {
    const environmentAdmin = options.adminKey ? environmentAdminKey(options.adminKey, now) : undefined;
    const checks = readinessChecks({ options, dbFile }, store, limiter, () => limits.current);
    const streams = new StreamRegistry(MAX_STREAMS_PER_KEY);
    metrics?.watchStreams(streams);
    const app = createApp({
      events: { feed: store.events, streams, settings: eventStreamSettings(options.eventStreams), timers: globalThis },
      pets: store.pets,
      listings,
      keys: store.keys,
      orders: store.orders,
      idempotency: store.idempotency,
      snapshot: () => store.snapshot(),
      limiter,
      limitsOf: (key) => limitsFor(key.admin ? "admin" : key.plan, key.limits, limits.current),
      anonymousLimits: initial.anonymous,
      anonymousLimitsOf: () => limits.current.anonymous,
      environmentAdmin,
      tickets: eventTicketsFor(options.ticketSecret, store.spentTickets, isPostgresUrl(options.db), (message) => logger.warn(message)),
      maxKeys: options.maxKeys,
      publicUrl: options.publicUrl,
      trustProxy: options.trustProxy ?? false,
      logger,
      now,
      metrics,
      outages: new OutageLog(logger, now),
      readiness: coalescedReadiness(() => checkReadiness(checks)),
      cors: options.corsOrigins?.length ? { origins: options.corsOrigins } : undefined,
      metricsRoute: metrics && options.metricsToken ? { token: options.metricsToken, scrape: metrics.scrape } : undefined,
      internals: options.frameworkInternals,
    });
    if (metrics && options.metricsPort !== undefined) {
      const { listenMetrics } = await import("./metrics/metrics-listener.js");
      metricsListener = await listenMetrics(metrics.scrape, options.metricsHost ?? "127.0.0.1", options.metricsPort);
    }
    const listener = await listenStrict(app, { port: options.port, host: options.host, tls: options.tls, internals: options.frameworkInternals });
    const baseUrl = `${listener.origin}${API_PREFIX}`;
    try {
      // Only once listening: a start that fails (a port in use) must not store a key nobody saw.
      if (!environmentAdmin) await ensureAdminKey(store.keys, logger, now, baseUrl);
    } catch (error) {
      await listener.close();
      throw error;
    }
    if (metricsListener) io.stdout.write(`petstore metrics on ${metricsListener.origin}/metrics\n`);
    await announceCertificate(options, listener, io, logger);
    // Last, so that whoever waits for this line finds the server ready, bootstrap key included.
    io.stdout.write(`petstore listening on ${baseUrl} (${description})\n`);
    for (const origin of listener.networkOrigins) io.stdout.write(`petstore also listening on ${origin}${API_PREFIX}\n`);
    io.stdout.write(`petstore API reference on ${listener.origin}${DOCS_PATH}\n`);
    return {
      baseUrl,
      origin: listener.origin,
      metricsOrigin: metricsListener?.origin,
      fetch: async (request) => app.fetch(request),
      reloadLimits: () => (configFile ? limits.reload(configFile) : noConfigToReload(logger)),
      close: async () => {
        // Streams never end by themselves: end them first, so the listener's wait is for real requests.
        streams.endAll();
        await listener.close();
        await metricsListener?.close();
        await limiter.close();
        await store.close();
      },
    };
  } catch (error) {
    await metricsListener?.close();
    await limiter.close();
    await store.close();
    await discard();
    throw error;
  }
}

export interface SignalSource {
  once(signal: "SIGINT" | "SIGTERM", listener: () => void): unknown;
  /** SIGHUP reloads the limits file; a source without `on` sends none. */
  on?(signal: "SIGHUP", listener: () => void): unknown;
  off?(signal: "SIGHUP", listener: () => void): unknown;
}

/** `petstore serve`: runs until SIGINT or SIGTERM, then stops gracefully; SIGHUP reloads the limits. Returns the exit code. */
export async function runServe(options: ServeOptions, io: ServeIO, signals: SignalSource = process): Promise<number> {
  // Listen for the signals before starting: a supervisor may send SIGTERM the moment the
  // listening line appears, and Node's default action would then skip the graceful stop.
  const stopSignal = new Promise<string>((done) => {
    signals.once("SIGINT", () => done("SIGINT"));
    signals.once("SIGTERM", () => done("SIGTERM"));
  });
  // Until the server is up a SIGHUP has nothing to reload; Node's default (exit 129) must not apply.
  let reload = () => {};
  const onHangUp = () => reload();
  signals.on?.("SIGHUP", onHangUp);
  // One logger from the first line to the last: with --log-format json, the stop and a failed
  // start are JSON lines too.
  const logger = await chooseLogger(options, io.stderr, options.now ?? Date.now);
  let server: RunningServer;
  try {
    server = await startServer(options, io, logger);
  } catch (error) {
    signals.off?.("SIGHUP", onHangUp);
    logger.fatal(messageOf(error));
    return 1;
  }
  reload = () => void server.reloadLimits();
  const signal = await stopSignal;
  signals.off?.("SIGHUP", onHangUp);
  logger.info(`${signal}: finishing in-flight requests, then stopping`);
  await server.close();
  logger.info("stopped");
  return 0;
}

/** Where the self-signed certificate of `--https` is, so that a client can trust it (`--ca-cert`). */
async function announceCertificate(options: ServeOptions, listener: HttpListener, io: ServeIO, logger: ServerLogger): Promise<void> {
  const tls = options.tls;
  if (!tls || !("selfSigned" in tls) || tls.certDir === undefined || listener.selfSignedCertificate === undefined) return;
  try {
    const file = await keepCertificate(listener.selfSignedCertificate, tls.certDir, options.host, listener.port);
    io.stdout.write(`petstore HTTPS certificate (self-signed, made at this start) in ${file}: clients trust it with --ca-cert ${file}\n`);
  } catch (error) {
    logger.warn(`cannot keep the self-signed certificate in ${tls.certDir} (${messageOf(error)}): clients cannot be pointed at it with --ca-cert`);
  }
}

/** JSON lines through pino, imported only when chosen; the text logger otherwise. */
async function chooseLogger(options: ServeOptions, sink: LogSink, now: () => number): Promise<ServerLogger> {
  if (options.logFormat !== "json") return createLogger(sink, { quiet: options.quiet, now });
  const { createJsonLogger } = await import("./logging/json-logger.js");
  return createJsonLogger(sink, { quiet: options.quiet, now });
}

function eventStreamSettings(overrides: Partial<EventStreamSettings> = {}): EventStreamSettings {
  return { keepAliveMs: EVENT_KEEP_ALIVE_MS, retryMs: EVENT_RETRY_MS, maxUnsentBytes: MAX_UNSENT_BYTES, revocationCheckMs: 500, ...overrides };
}

const wantsMetrics = (options: ServeOptions) => options.metricsPort !== undefined || options.metricsToken !== undefined;

/** prom-client, imported only when metrics were asked for. */
async function createMetrics(): Promise<PrometheusMetrics & { watchPets(store: Store): void; watchStreams(streams: StreamRegistry): void }> {
  const { createPrometheusMetrics } = await import("./metrics/prometheus.js");
  let store: Store | undefined;
  let streams: StreamRegistry | undefined;
  const metrics = createPrometheusMetrics({
    petsByStatus: async () => (await store?.pets.countByStatus?.()) ?? {},
    openEventStreams: () => streams?.size ?? 0,
  });
  return { ...metrics, watchPets: (opened) => (store = opened), watchStreams: (registry) => (streams = registry) };
}

/** What /readyz asks: the store for a page of one pet, the db directory for a file, Redis for a usage. */
function readinessChecks(
  { options, dbFile }: { options: ServeOptions; dbFile: string | undefined },
  store: Store,
  limiter: RateLimiter,
  limits: () => LimitsConfig,
): ReadinessCheck[] {
  const checks: ReadinessCheck[] = [{ name: "store", check: () => store.pets.list({ limit: 1 }) }];
  if (dbFile !== undefined) checks.push(dbDirectoryCheck(dbFile));
  if (options.redis) checks.push({ name: "limits (Redis)", check: () => limiter.peek("readyz", limits().anonymous) });
  return checks;
}

async function noConfigToReload(logger: ServerLogger): Promise<boolean> {
  logger.warn("SIGHUP: no --config file to reload; the default limits stay in force");
  return false;
}
