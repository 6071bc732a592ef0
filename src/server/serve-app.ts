// The app over one set of opened engines, as `serve` builds it: for a db, once; for --ephemeral,
// once per world (each reset builds another over a fresh store and limiter).
import type { H3 } from "h3";
import { limitsFor, type LimitsConfig } from "../limits/plans.js";
import type { RateLimiter } from "../limits/rate-limiter.js";
import type { SharedListingVersion } from "../store/pet-store.js";
import type { Store } from "../store/store.js";
import type { KeyRecord } from "../store/key-store.js";
import { createApp, type AppDeps } from "./app.js";
import { EVENT_KEEP_ALIVE_MS, EVENT_RETRY_MS, MAX_STREAMS_PER_KEY, MAX_UNSENT_BYTES } from "../contract/events.js";
import type { EventStreamSettings } from "./events/event-stream.js";
import type { EventTickets } from "./events/event-tickets.js";
import { StreamRegistry } from "./events/stream-registry.js";
import type { PrometheusMetrics } from "./metrics/prometheus.js";
import { OutageLog } from "./logging/outage-log.js";
import type { ReloadableLimits } from "./ops/limits-reload.js";
import { checkReadiness, coalescedReadiness, dbDirectoryCheck, type ReadinessCheck } from "./ops/readiness.js";
import type { ServerLogger } from "./request-log.js";
import type { ChaosDeps } from "./routes/chaos.js";
import type { TrustProxy } from "./internal/client-ip.js";
import type { FrameworkInternals } from "./internal/framework-internals.js";

/** The settings of `serve` that shape the app (ServeOptions has them all). */
export interface AppSettings {
  redis?: string;
  eventStreams?: Partial<EventStreamSettings>;
  maxKeys?: number;
  publicUrl?: string;
  trustProxy?: TrustProxy | boolean;
  corsOrigins?: string[];
  metricsToken?: string;
  frameworkInternals?: FrameworkInternals;
}

export type ServeMetrics = PrometheusMetrics & { watchPets(store: Store): void; watchStreams(streams: StreamRegistry): void };

/** What every app of one server shares, whatever store it is built over. */
export interface ServeShared {
  options: AppSettings;
  logger: ServerLogger;
  now: () => number;
  limits: ReloadableLimits;
  initial: LimitsConfig;
  metrics: ServeMetrics | undefined;
  environmentAdmin: KeyRecord | undefined;
  tickets: EventTickets;
  /** The operations only a throwaway server has (POST /admin/reset...). */
  admin?: Pick<AppDeps, "reset">;
  /** Faults on purpose (--chaos), and whether PUT /admin/chaos may change them. */
  chaos?: ChaosDeps;
  /** Webhook deliveries: wake the worker after a change, and the SSRF check of endpoint URLs. */
  webhooks?: { wake(): void; refusedHost: NonNullable<AppDeps["refusedHost"]> };
}

export interface OpenedEngines {
  store: Store;
  limiter: RateLimiter;
  listings?: SharedListingVersion;
  dbFile?: string;
}

/** The app over `engines`, with its own registry of open streams. */
export function appOver(engines: OpenedEngines, shared: ServeShared): { app: H3; streams: StreamRegistry } {
  const { store, limiter } = engines;
  const { options, logger, now, limits, metrics } = shared;
  const streams = new StreamRegistry(MAX_STREAMS_PER_KEY);
  metrics?.watchPets(store);
  metrics?.watchStreams(streams);
  const checks = readinessChecks(options, engines, () => limits.current);
  const app = createApp({
    events: { feed: store.events, streams, settings: eventStreamSettings(options.eventStreams), timers: globalThis },
    pets: store.pets,
    listings: engines.listings,
    keys: store.keys,
    orders: store.orders,
    webhooks: store.webhooks,
    deliveries: store.deliveries,
    wakeDeliveries: shared.webhooks?.wake,
    refusedHost: shared.webhooks?.refusedHost,
    idempotency: store.idempotency,
    snapshot: () => store.snapshot(),
    limiter,
    limitsOf: (key) => limitsFor(key.admin ? "admin" : key.plan, key.limits, limits.current),
    anonymousLimits: shared.initial.anonymous,
    anonymousLimitsOf: () => limits.current.anonymous,
    environmentAdmin: shared.environmentAdmin,
    tickets: shared.tickets,
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
    chaos: shared.chaos,
    ...shared.admin,
  });
  return { app, streams };
}

function eventStreamSettings(overrides: Partial<EventStreamSettings> = {}): EventStreamSettings {
  return { keepAliveMs: EVENT_KEEP_ALIVE_MS, retryMs: EVENT_RETRY_MS, maxUnsentBytes: MAX_UNSENT_BYTES, revocationCheckMs: 500, ...overrides };
}

/** What /readyz asks: the store for a page of one pet, the db directory for a file, Redis for a usage. */
function readinessChecks(options: AppSettings, { store, limiter, dbFile }: OpenedEngines, limits: () => LimitsConfig): ReadinessCheck[] {
  const checks: ReadinessCheck[] = [{ name: "store", check: () => store.pets.list({ limit: 1 }) }];
  if (dbFile !== undefined) checks.push(dbDirectoryCheck(dbFile));
  if (options.redis) checks.push({ name: "limits (Redis)", check: () => limiter.peek("readyz", limits().anonymous) });
  return checks;
}
