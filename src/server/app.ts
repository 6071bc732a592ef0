import { randomBytes } from "node:crypto";
import { H3 } from "h3";
import { ROUTES } from "../contract/routes.js";
import type { KeyLimits } from "../contract/schemas.js";
import type { RateLimiter } from "../limits/rate-limiter.js";
import type { IdempotencyStore } from "../store/idempotency-store.js";
import type { KeyRecord, KeyStore } from "../store/key-store.js";
import type { OrderStore } from "../store/order-store.js";
import type { PetStore, SharedListingVersion } from "../store/pet-store.js";
import { toErrorResponse } from "./error-response.js";
import type { TrustProxy } from "./internal/client-ip.js";
import type { FrameworkInternals } from "./internal/framework-internals.js";
import { REQUEST_ID_HEADER, requestIdOf } from "./internal/request-id.js";
import type { OutageLog } from "./logging/outage-log.js";
import type { MetricsObserver } from "./metrics/observer.js";
import type { MetricsRoute } from "./metrics/metrics-route.js";
import { IdempotentCreates } from "./idempotency/idempotent-creates.js";
import { createGuard } from "./middleware/guard.js";
import { isWrite, logRequests, observeGuard } from "./ops/observe.js";
import type { Readiness } from "./ops/readiness.js";
import type { ServerLogger } from "./request-log.js";
import { StorageUnavailableError } from "../support/storage-unavailable.js";
import { keyHandlers } from "./routes/keys.js";
import type { StoreData } from "../store/indexed/store-state.js";
import { registerRoutes } from "./routes/register.js";
import { metaHandlers } from "./routes/meta.js";
import { storeHandlers } from "./routes/orders.js";
import { eventHandlers, type EventRouteDeps } from "./routes/events.js";
import { petHandlers } from "./routes/pets.js";
import { webhookHandlers, type WebhookRoutesDeps } from "./routes/webhooks.js";
import type { WebhookStore } from "../store/webhook-store.js";
import type { DeliveryStore } from "../store/delivery-store.js";
import type { ChaosDeps } from "./routes/chaos.js";
import { registerDocs } from "./docs/docs-routes.js";
import { createCors, type CorsOptions } from "./cors.js";
import { EventTickets } from "./events/event-tickets.js";
import { MemorySpentTickets } from "../store/spent-tickets.js";

declare module "h3" {
  interface H3EventContext {
    /** The key that authenticated this request. */
    principal?: KeyRecord;
    startedAt?: number;
  }
}

export interface AppDeps {
  pets: PetStore;
  keys: KeyStore;
  orders: OrderStore;
  webhooks: WebhookStore;
  deliveries: DeliveryStore;
  /** Something is due now (a retry or a test asked for): the delivery engine looks at once. */
  wakeDeliveries?: () => void;
  /** Why a webhook URL's host may not be called (--webhooks-allow-private lifts it); every host may when absent. */
  refusedHost?: WebhookRoutesDeps["refusedHost"];
  /** The stored answers of idempotent creates (the store's own: its creates write them). */
  idempotency: IdempotencyStore;
  limiter: RateLimiter;
  limitsOf: (key: KeyRecord) => KeyLimits;
  anonymousLimits: KeyLimits;
  environmentAdmin?: KeyRecord;
  /** The limits of anonymous requests as they are now (a SIGHUP reload changes them); else `anonymousLimits`. */
  anonymousLimitsOf?: () => KeyLimits;
  /** Which X-Forwarded-For entries to believe (only behind proxies you run); true means one hop. */
  trustProxy?: boolean | TrustProxy;
  logger: ServerLogger;
  now: () => number;
  /** Counts requests, durations and refusals for /metrics. */
  metrics?: MetricsObserver;
  /** Logs a storage outage once, and its end. */
  outages?: OutageLog;
  /** GET /readyz; without it the app is ready whenever it answers. */
  readiness?: () => Promise<Readiness>;
  /** POST /v1/admin/backup: the store's consistent snapshot; 404 without. */
  snapshot?: () => Promise<StoreData>;
  /** POST /v1/admin/reset: back to the seed (`serve --ephemeral`); 404 without. */
  reset?: () => Promise<void>;
  /** Faults on purpose (--chaos); PUT /v1/admin/chaos changes them when settable (--ephemeral). */
  chaos?: ChaosDeps;
  /** GET /metrics on this port, behind its own token (--metrics-token); 404 without. */
  metricsRoute?: MetricsRoute;
  /** The most API keys the store may hold (MAX_KEYS when absent). */
  maxKeys?: number;
  /** GET /v1/events: the store's feed, the open streams and their timings. */
  events?: Omit<EventRouteDeps, "credentialEnded">;
  /** Where links point (--public-url); the request's origin without. */
  publicUrl?: string;
  /** Event-stream tickets under the server's secret; without, under one of this app only. */
  tickets?: EventTickets;
  /** CORS for these browser origins (--cors-origin); none without. */
  cors?: CorsOptions;
  /** Over PostgreSQL with a shared Redis: when a kept listing is still right (see RedisListingVersion). */
  listings?: SharedListingVersion;
  /** h3's private internals where it has them (see framework-internals.ts); PUBLIC_PATHS in a test. */
  internals?: FrameworkInternals;
}

/** Builds the API as an h3 app (a fetch function); it never listens. */
export function createApp(deps: AppDeps): H3 {
  const app = new H3({
    silent: true,
    // Malformed percent-escapes reach our handlers (400 invalid_parameter with the usual headers).
    allowMalformedURL: true,
    onError: (error, event) => {
      if (deps.outages && error.cause instanceof StorageUnavailableError) deps.outages.failed(error.cause, isWrite(event.req.method));
      event.res.headers.set(REQUEST_ID_HEADER, requestIdOf(event));
      return toErrorResponse(error, event, deps.logger);
    },
    ...(deps.logger.logsRequests ? logRequests(deps.logger) : {}),
  });
  const trustProxy = deps.trustProxy === true ? { hops: 1 } : deps.trustProxy || undefined;
  const refused = deps.metrics ? (reason: string) => deps.metrics?.refused(reason) : undefined;
  const tickets = deps.tickets ?? new EventTickets(randomBytes(32), new MemorySpentTickets());
  // Before the guard: a preflight is answered without a key and without being counted.
  if (deps.cors) app.use(createCors(deps.cors));
  app.use(observeGuard(createGuard({ ...deps, tickets, trustProxy, onRefused: refused, announceChange: announcer(deps.listings) }), deps));

  const creates = new IdempotentCreates(deps);
  const withTickets = { ...deps, tickets, trustProxy };
  // Each tag's module exports its handlers; together they are every operation of the table.
  registerRoutes(app, ROUTES, {
    ...petHandlers({ ...deps, creates }),
    ...storeHandlers({ ...deps, creates }),
    ...eventHandlers(withTickets),
    ...keyHandlers({ ...deps, creates }),
    ...webhookHandlers(deps),
    ...metaHandlers(withTickets),
  });
  registerDocs(app);
  return app;
}

function announcer(listings: SharedListingVersion | undefined): (() => Promise<void>) | undefined {
  return listings ? () => listings.changed() : undefined;
}
