import { H3, type H3Event } from "h3";
import { API_PREFIX, HEALTH_PATH, type KeyLimits } from "../contract/values.js";
import type { RateLimiter } from "../limits/rate-limiter.js";
import type { KeyRecord, KeyStore } from "../store/key-store.js";
import type { PetStore } from "../store/pet-store.js";
import { toErrorResponse } from "./error-response.js";
import { createGuard } from "./middleware/guard.js";
import type { ServerLogger } from "./request-log.js";
import { createKey, listKeys, revokeKey } from "./routes/keys.js";
import { route } from "./routes/method-table.js";
import { getOpenApi } from "./routes/openapi.js";
import { createPet, getPet, listPets } from "./routes/pets.js";

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

  const { pets } = deps;
  route(app, HEALTH_PATH, { GET: () => ({ status: "ok" }) }, { public: true });
  route(app, `${API_PREFIX}/pets`, { GET: (e) => listPets(e, pets), POST: (e) => createPet(e, pets) });
  route(app, `${API_PREFIX}/pets/:petId`, { GET: (e) => getPet(e, pets) }, { deprecated: true });
  route(app, `${API_PREFIX}/keys`, { GET: (e) => listKeys(e, deps), POST: (e) => createKey(e, deps) });
  route(app, `${API_PREFIX}/keys/:id`, { DELETE: (e) => revokeKey(e, deps) });
  route(app, `${API_PREFIX}/openapi.json`, { GET: getOpenApi }, { public: true });
  return app;
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
