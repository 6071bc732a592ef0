// The outer layer of the server: the only module that knows the db path, listhen, signals
// and the lock. Everything below it is built from injected parts.
import type { H3 } from "h3";
import { API_PREFIX } from "../contract/constants.js";
import { messageOf } from "../support/error-text.js";
import { writeFileAtomic } from "../support/json-file.js";
import { loadServeConfig } from "../limits/config.js";
import { defaultLimitsConfig } from "../limits/plans.js";
import { DOCS_PATH } from "./docs/page.js";
import { environmentAdminKey, ensureAdminKey } from "./keys/admin-keys.js";
import { generateApiKey } from "./keys/secrets.js";
import type { FrameworkInternals } from "./internal/framework-internals.js";
import { listenStrict, type HttpListener } from "./listen.js";
import { keepCertificate } from "./internal/tls.js";
import { assertListenable } from "./internal/listen-failure.js";
import { isPostgresUrl, openBackends } from "./open-backends.js";
import { createLogger, type LogSink, type ServerLogger } from "./request-log.js";
import type { TrustProxy } from "./internal/client-ip.js";
import type { ServeTls } from "./internal/tls.js";
import type { MetricsListener } from "./metrics/metrics-listener.js";
import { ReloadableLimits } from "./ops/limits-reload.js";
import type { Store } from "../store/store.js";
import type { KeyStore } from "../store/key-store.js";
import type { EventStreamSettings } from "./events/event-stream.js";
import type { StreamRegistry } from "./events/stream-registry.js";
import { eventTicketsFor } from "./events/event-tickets.js";
import type { Seed } from "./seed/seed-data.js";
import type { ChaosFault } from "../contract/chaos.js";
import { ChaosControl } from "./chaos/chaos-control.js";
import { appOver, type ServeMetrics, type ServeShared } from "./serve-app.js";
import { checkOutgoingUrl } from "../support/ssrf/index.js";
import { receiverHealth } from "./webhooks/receiver-health.js";
import { deliveryMetrics } from "./webhooks/delivery-metrics.js";
import { startDeliveries, type RunningDeliveries, type WebhookSettings } from "./webhooks/start-deliveries.js";
import { privateTargetsAllowed, privateTargetsWarning } from "./webhooks/private-targets.js";
import { checkSeedTargets } from "./seed/seed-targets.js";

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
  /** Webhook deliveries: retry window, timeout, and (tests) where connections go and how often retries are looked for. */
  webhooks?: WebhookSettings & {
    /** --webhooks-allow-private: endpoints on loopback and private networks may be called (local development, tests). */
    allowPrivate?: boolean;
  };
  /** Every store in memory, nothing written (no db, lock, counters file); POST /admin/reset restores the seed. */
  ephemeral?: boolean;
  /** What the store starts with (--seed): in memory with `ephemeral`, else written into an empty db. */
  seed?: Seed;
  /** Once listening, PETSTORE_BASE_URL and PETSTORE_API_KEY (the admin key) written atomically to this file. */
  writeEnv?: string;
  /** Once listening, the same two lines on stdout (the other start-up lines then go to stderr). */
  printEnv?: boolean;
  /** Faults on purpose (--chaos, --chaos-seed); a random seed, said at start, when none is given. */
  chaos?: { faults: ChaosFault[]; seed?: number };
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
  /** The admin key this run hands out (PETSTORE_ADMIN_KEY, the seed's, or one drawn for the run); none when it has none to give. */
  adminKey?: string;
  /** SIGHUP: reads the limits file again; false when it was refused (the old limits stay). */
  reloadLimits(): Promise<boolean>;
  /** Graceful stop: finish in-flight requests, persist counters and data, release the lock. */
  close(): Promise<void>;
}

/** Opens the db (or, with `ephemeral`, memory), builds the app and listens; resolves once it accepts connections. Logs through `logger` when given. */
export async function startServer(options: ServeOptions, io: ServeIO, given?: ServerLogger): Promise<RunningServer> {
  const now = options.now ?? Date.now;
  const logger = given ?? (await chooseLogger(options, io.stderr, now));
  const configFile = options.configFile;
  const initial = configFile ? await loadServeConfig(configFile) : defaultLimitsConfig();
  const limits = new ReloadableLimits(initial, () => (configFile ? loadServeConfig(configFile) : Promise.resolve(defaultLimitsConfig())), logger);
  const metrics = wantsMetrics(options) ? await createMetrics() : undefined;
  // Checked as POST /v1/webhooks checks a URL, before anything opens (the CLI checks first, for its exit 2).
  await checkSeedTargets(options.seed, privateTargetsAllowed(options));
  // Before the db is opened: an address or port that cannot be had then creates no file.
  await assertListenable(options.host, options.port);
  const admin = adminOfThisRun(options);
  const environmentAdmin = admin.runSecret ? environmentAdminKey(admin.runSecret, now) : undefined;
  // Always there in memory, so that PUT /admin/chaos can turn faults on; elsewhere only with --chaos.
  const control = options.chaos || options.ephemeral ? new ChaosControl(options.chaos?.faults, options.chaos?.seed) : undefined;
  const chaos = control && { control, settable: options.ephemeral === true };
  // In memory each world wakes its own deliveries; this is the SSRF check every world shares.
  const webhooks = { wake: () => {}, refusedHost: refusedHost(privateTargetsAllowed(options)) };
  const partial = { options, logger, now, limits, initial, metrics, environmentAdmin, chaos, webhooks };
  const served = options.ephemeral ? await serveInMemory(partial) : await serveBackends(partial);
  let metricsListener: MetricsListener | undefined;
  try {
    if (metrics && options.metricsPort !== undefined) {
      const { listenMetrics } = await import("./metrics/metrics-listener.js");
      metricsListener = await listenMetrics(metrics.scrape, options.metricsHost ?? "127.0.0.1", options.metricsPort);
    }
    const listener = await listenStrict(served.app, { port: options.port, host: options.host, tls: options.tls, internals: options.frameworkInternals, chaos: control });
    const baseUrl = `${listener.origin}${API_PREFIX}`;
    try {
      // Only once listening: a start that fails (a port in use) must not store a key nobody saw.
      if (!environmentAdmin && served.keys) await ensureAdminKey(served.keys, logger, now, baseUrl);
      served.listening?.();
      if (control?.on) logger.warn(`chaos on: ${control.spec} (--chaos-seed ${control.seed}): requests fail on purpose, as /readyz says`);
      await announce({ options, io, logger, listener, baseUrl, metricsListener, description: served.description, admin });
    } catch (error) {
      await listener.close();
      throw error;
    }
    return {
      baseUrl,
      origin: listener.origin,
      metricsOrigin: metricsListener?.origin,
      fetch: async (request) => served.app.fetch(request),
      adminKey: admin.secret,
      reloadLimits: () => (configFile ? limits.reload(configFile) : noConfigToReload(logger)),
      close: async () => {
        // Streams never end by themselves: the engines end them first, so the listener's wait is for real requests.
        served.endStreams();
        await listener.close();
        await metricsListener?.close();
        await served.close();
      },
    };
  } catch (error) {
    await metricsListener?.close();
    await served.close();
    await served.discard?.();
    throw error;
  }
}

type PartialShared = Omit<ServeShared, "tickets" | "admin" | "options"> & { options: ServeOptions };

/** What startServer listens with and closes, whichever engines are behind it. */
interface Served {
  app: Pick<H3, "fetch">;
  description: string;
  /** Where the bootstrap admin key is stored when no key of this run is given; none in memory. */
  keys?: KeyStore;
  endStreams(): void;
  /** Once listening: what starts only then (webhook deliveries). */
  listening?(): void;
  close(): Promise<void>;
  discard?(): Promise<void>;
}

/** The db (a file or PostgreSQL) and the limiter it goes with; the seed, if any, fills an empty db first. */
async function serveBackends(partial: PartialShared): Promise<Served> {
  const { options, logger, now, metrics, initial } = partial;
  const { store, limiter, description, listings, dbFile, discard } = await openBackends({
    db: options.db,
    redis: options.redis,
    ban: initial.ban,
    now,
    seed: options.seed?.data,
    warn: (message) => logger.warn(message),
    onWrite: metrics ? (write) => metrics.storeWrite(write) : undefined,
  });
  const tickets = eventTicketsFor(options.ticketSecret, store.spentTickets, isPostgresUrl(options.db), (message) => logger.warn(message));
  let deliveries: RunningDeliveries | undefined;
  const webhooks = { refusedHost: refusedHost(privateTargetsAllowed(options)), wake: () => deliveries?.wake() };
  const { app, streams } = appOver({ store, limiter, listings, dbFile }, { ...partial, tickets, webhooks });
  return {
    app,
    description,
    keys: store.keys,
    endStreams: () => streams.endAll(),
    listening: () => {
      const observers = [receiverHealth(logger, now), ...(metrics ? [deliveryMetrics(metrics)] : [])];
      deliveries = startDeliveries(store, options.webhooks ?? {}, now, observers, (message) => logger.warn(message));
      const warning = privateTargetsWarning(options);
      if (warning) logger.warn(warning);
    },
    close: async () => {
      await deliveries?.stop();
      await limiter.close();
      await store.close();
    },
    discard,
  };
}

/** --ephemeral: a world in memory from the seed, replaced by a fresh one at each POST /admin/reset. */
async function serveInMemory(partial: PartialShared): Promise<Served> {
  const { openEphemeralWorlds } = await import("./ephemeral/open-worlds.js");
  const worlds = await openEphemeralWorlds(partial);
  const warning = privateTargetsWarning(partial.options);
  return {
    app: worlds,
    description: "in memory (--ephemeral), nothing written",
    endStreams: () => worlds.current.streams.endAll(),
    listening: () => {
      if (warning) partial.logger.warn(warning);
    },
    close: () => worlds.close(),
  };
}

/**
 * The admin key this run hands out (--write-env, --print-env): PETSTORE_ADMIN_KEY, else the seed's
 * first admin key, else one drawn for this run alone (never stored, valid while it runs), which an
 * in-memory server always needs, since it has no bootstrap key a reset would keep.
 */
function adminOfThisRun(options: ServeOptions): { secret?: string; runSecret?: string; drawn: boolean } {
  if (options.adminKey) return { secret: options.adminKey, runSecret: options.adminKey, drawn: false };
  if (options.seed?.adminSecret) return { secret: options.seed.adminSecret, drawn: false };
  if (!options.ephemeral && !options.writeEnv && !options.printEnv) return { drawn: false };
  const drawn = generateApiKey();
  return { secret: drawn, runSecret: drawn, drawn: true };
}

interface Announcement {
  options: ServeOptions;
  io: ServeIO;
  logger: ServerLogger;
  listener: HttpListener;
  baseUrl: string;
  metricsListener: MetricsListener | undefined;
  description: string;
  admin: { secret?: string; drawn: boolean };
}

/** The start-up lines, then --write-env's file and --print-env's lines: last, so whoever waits for them finds the server ready. */
async function announce({ options, io, logger, listener, baseUrl, metricsListener, description, admin }: Announcement): Promise<void> {
  // With --print-env, stdout carries the two lines alone, for a script to read.
  const lines = options.printEnv ? io.stderr : io.stdout;
  if (admin.drawn && !options.printEnv && !options.writeEnv) logger.info(`Admin API key of this run (not stored; it ends with the server):\n  ${admin.secret}`);
  if (metricsListener) lines.write(`petstore metrics on ${metricsListener.origin}/metrics\n`);
  await announceCertificate(options, listener, { stdout: lines, stderr: io.stderr }, logger);
  lines.write(`petstore listening on ${baseUrl} (${description})\n`);
  for (const origin of listener.networkOrigins) lines.write(`petstore also listening on ${origin}${API_PREFIX}\n`);
  lines.write(`petstore API reference on ${listener.origin}${DOCS_PATH}\n`);
  const env = envLines(baseUrl, admin.secret);
  if (options.writeEnv !== undefined) await writeFileAtomic(options.writeEnv, env, { mode: 0o600 });
  if (options.printEnv) io.stdout.write(env);
}

/** PETSTORE_BASE_URL and PETSTORE_API_KEY, as a shell or a dotenv file reads them. */
function envLines(baseUrl: string, adminKey: string | undefined): string {
  return `PETSTORE_BASE_URL=${baseUrl}\n${adminKey ? `PETSTORE_API_KEY=${adminKey}\n` : ""}`;
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

const wantsMetrics = (options: ServeOptions) => options.metricsPort !== undefined || options.metricsToken !== undefined;

/** prom-client, imported only when metrics were asked for. */
async function createMetrics(): Promise<ServeMetrics> {
  const { createPrometheusMetrics } = await import("./metrics/prometheus.js");
  let store: Store | undefined;
  let streams: StreamRegistry | undefined;
  const metrics = createPrometheusMetrics({
    petsByStatus: async () => (await store?.pets.countByStatus?.()) ?? {},
    openEventStreams: () => streams?.size ?? 0,
    pendingDeliveries: async () => (await store?.deliveries.pendingCount()) ?? 0,
  });
  return { ...metrics, watchPets: (opened) => (store = opened), watchStreams: (registry) => (streams = registry) };
}

async function noConfigToReload(logger: ServerLogger): Promise<boolean> {
  logger.warn("SIGHUP: no --config file to reload; the default limits stay in force");
  return false;
}

/** Why a webhook URL's host may not be called: the SSRF check of create and update time. */
function refusedHost(allowPrivate: boolean): (url: URL) => Promise<string | undefined> {
  return async (url) => {
    const check = await checkOutgoingUrl(url.href, { allowPrivate });
    return check.ok ? undefined : check.reason;
  };
}
