import { H3, type H3Event } from "h3";
import { ROUTES, type OperationId } from "../contract/routes.js";
import type { KeyLimits } from "../contract/schemas.js";
import type { RateLimiter } from "../limits/rate-limiter.js";
import type { KeyRecord, KeyStore } from "../store/key-store.js";
import type { IdempotencyStore } from "../store/idempotency-store.js";
import type { PetStore } from "../store/pet-store.js";
import { toErrorResponse } from "./error-response.js";
import { IdempotentCreates } from "./idempotency/idempotent-creates.js";
import { createGuard } from "./middleware/guard.js";
import type { ServerLogger } from "./request-log.js";
import { createKey, getCurrentKey, listKeys, revokeKey } from "./routes/keys.js";
import { registerRoutes, type Handlers } from "./routes/register.js";
import { getOpenApi } from "./routes/openapi.js";
import { createPet, deletePet, getPet, listPets, updatePet } from "./routes/pets.js";

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
  /** The stored answers of idempotent creates (the store's own: its creates write them). */
  idempotency: IdempotencyStore;
  limiter: RateLimiter;
  limitsOf: (key: KeyRecord) => KeyLimits;
  anonymousLimits: KeyLimits;
  environmentAdmin?: KeyRecord;
  /** Take the client IP from X-Forwarded-For (only behind a proxy you run). */
  trustProxy?: boolean;
  logger: ServerLogger;
  now: () => number;
}

/** Builds the API as an h3 app (a fetch function); it never listens. */
export function createApp(deps: AppDeps): H3 {
  const app = new H3({
    silent: true,
    // Malformed percent-escapes reach our handlers (400 invalid_parameter with the usual headers).
    allowMalformedURL: true,
    onError: (error, event) => toErrorResponse(error, event, deps.logger),
    ...(deps.logger.logsRequests ? requestLogging(deps.logger) : {}),
  });
  app.use(createGuard({ ...deps, trustProxy: deps.trustProxy ?? false }));

  registerRoutes(app, ROUTES, handlers(deps));
  return app;
}

/** The handler of each operation in the route table (src/contract/routes.ts). */
function handlers(deps: AppDeps): Handlers<OperationId> {
  const { pets } = deps;
  const creates = new IdempotentCreates(deps);
  const keyRoutes = { ...deps, creates };
  return {
    health: () => ({ status: "ok" }),
    listPets: (event) => listPets(event, pets),
    createPet: (event) => createPet(event, pets, creates),
    getPet: (event) => getPet(event, pets),
    updatePet: (event) => updatePet(event, pets),
    deletePet: (event) => deletePet(event, pets),
    listKeys: () => listKeys(keyRoutes),
    createKey: (event) => createKey(event, keyRoutes),
    revokeKey: (event) => revokeKey(event, keyRoutes),
    getCurrentKey: (event) => getCurrentKey(event, keyRoutes),
    getOpenApi,
  };
}

function requestLogging(logger: ServerLogger) {
  return {
    onRequest(event: H3Event) {
      event.context.startedAt = performance.now();
    },
    onResponse(response: Response, event: H3Event) {
      const ms = performance.now() - (event.context.startedAt ?? performance.now());
      logger.request(event.req.method, event.url.pathname + event.url.search, response.status, ms);
    },
  };
}
