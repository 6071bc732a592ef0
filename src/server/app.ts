import { randomBytes } from "node:crypto";
import { H3, type H3Event } from "h3";
import { ROUTES, type OperationId } from "../contract/routes.js";
import type { KeyLimits } from "../contract/schemas.js";
import type { RateLimiter } from "../limits/rate-limiter.js";
import type { IdempotencyStore } from "../store/idempotency-store.js";
import type { KeyRecord, KeyStore } from "../store/key-store.js";
import type { OrderStore } from "../store/order-store.js";
import type { PetStore, SharedListingVersion } from "../store/pet-store.js";
import { toErrorResponse } from "./error-response.js";
import { ApiHttpError } from "./errors.js";
import type { TrustProxy } from "./internal/client-ip.js";
import { REQUEST_ID_HEADER, requestIdOf } from "./internal/request-id.js";
import type { OutageLog } from "./logging/outage-log.js";
import type { MetricsObserver } from "./metrics/observer.js";
import { serveMetrics, type MetricsRoute } from "./metrics/metrics-route.js";
import { IdempotentCreates } from "./idempotency/idempotent-creates.js";
import { createGuard } from "./middleware/guard.js";
import { isWrite, logRequests, observeGuard } from "./ops/observe.js";
import type { Readiness } from "./ops/readiness.js";
import type { ServerLogger } from "./request-log.js";
import { StorageUnavailableError } from "../support/storage-unavailable.js";
import { createKey, getCurrentKey, listKeys, revokeKey } from "./routes/keys.js";
import { rotateKey } from "./routes/rotate-key.js";
import { takeBackup } from "./routes/backup.js";
import type { StoreData } from "../store/indexed/store-state.js";
import { registerRoutes, type Handlers } from "./routes/register.js";
import { getOpenApi } from "./routes/openapi.js";
import { getInventory, getOrder, listOrders, placeOrder, updateOrder } from "./routes/orders.js";
import { streamEvents, type EventRouteDeps } from "./routes/events.js";
import { createPet, deletePet, getPet, listPets, updatePet, type PetPageAnswer } from "./routes/pets.js";
import { PageCache } from "./internal/page-cache.js";
import { registerDocs } from "./docs/docs-routes.js";
import { createCors, type CorsOptions } from "./cors.js";
import { EventTickets } from "./events/event-tickets.js";
import { streamCredentialCheck } from "./events/stream-credential.js";
import { MemorySpentTickets } from "../store/spent-tickets.js";
import { negotiated } from "./routes/negotiated.js";

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

  registerRoutes(app, ROUTES, negotiated(handlers({ ...deps, tickets, trustProxy })));
  registerDocs(app);
  return app;
}

function announcer(listings: SharedListingVersion | undefined): (() => Promise<void>) | undefined {
  return listings ? () => listings.changed() : undefined;
}

/** The handler of each operation in the route table (src/contract/routes.ts). */
function handlers(deps: AppDeps & { tickets: EventTickets; trustProxy: TrustProxy | undefined }): Handlers<OperationId> {
  const { pets, orders, now } = deps;
  const tokenAttempts = { limiter: deps.limiter, now, trustProxy: deps.trustProxy };
  const credentialEnded = streamCredentialCheck(deps);
  const creates = new IdempotentCreates(deps);
  const keyRoutes = { ...deps, creates };
  const petPages = new PageCache<PetPageAnswer>();
  return {
    health: () => ({ status: "ok" }),
    ready: () => ready(deps),
    metrics: (event) => serveMetrics(event, deps.metricsRoute, tokenAttempts),
    listPets: (event) => listPets(event, pets, petPages, deps.listings),
    createPet: (event) => createPet(event, pets, creates),
    getPet: (event) => getPet(event, pets),
    updatePet: (event) => updatePet(event, pets),
    deletePet: (event) => deletePet(event, pets, orders),
    listOrders: (event) => listOrders(event, orders),
    placeOrder: (event) => placeOrder(event, orders, creates, now),
    getOrder: (event) => getOrder(event, orders),
    updateOrder: (event) => updateOrder(event, orders, now),
    getInventory: () => getInventory(orders),
    listKeys: () => listKeys(keyRoutes),
    createKey: async (event) => {
      const created = await createKey(event, keyRoutes);
      // A replayed answer (Idempotency-Key) created nothing: the first answer was audited.
      if (!event.res.headers.has("idempotent-replayed")) audit(event, deps, "key.created", created.id, created.plan);
      return created;
    },
    revokeKey: async (event) => {
      const result = await revokeKey(event, keyRoutes);
      audit(event, deps, "key.revoked", event.context.params?.id ?? "");
      return result;
    },
    rotateKey: async (event) => {
      const rotated = await rotateKey(event, keyRoutes);
      audit(event, deps, "key.rotated", rotated.id, rotated.plan);
      return rotated;
    },
    getCurrentKey: (event) => getCurrentKey(event, keyRoutes),
    takeBackup: () => takeBackup(deps.snapshot),
    getOpenApi,
    createEventTicket: (event) => {
      // The operation takes no body: one sent means the caller meant another call.
      const length = event.req.headers.get("content-length");
      if ((length !== null && length !== "0") || event.req.headers.has("transfer-encoding")) {
        throw new ApiHttpError("invalid_body", "POST /v1/events/tickets takes no body");
      }
      return deps.tickets.issue(event.context.principal!, event.context.credentialHash!, now());
    },
    streamEvents: (event) => {
      // An app built without a feed (a unit test of other routes) has no stream to give.
      if (!deps.events) throw new ApiHttpError("not_found", "this server does not serve events");
      return streamEvents(event, { ...deps.events, credentialEnded, logger: deps.logger });
    },
  };
}

/** 200 {status: "ready"}, or 503 storage_unavailable naming each part that did not answer. */
async function ready(deps: AppDeps): Promise<{ status: string }> {
  const readiness = deps.readiness ? await deps.readiness() : { ready: true as const };
  if (!readiness.ready) throw new ApiHttpError("storage_unavailable", `not ready: ${readiness.failures.join("; ")}`, { "retry-after": "5" });
  return { status: "ready" };
}

/** An admin change, for the audit trail: the acting key's id, never a secret. */
function audit(event: H3Event, deps: AppDeps, action: "key.created" | "key.revoked" | "key.rotated", keyId: string, plan?: string): void {
  const actor = event.context.principal?.id ?? "unknown";
  deps.logger.audit({ action, actor, keyId, plan, requestId: requestIdOf(event) });
}
