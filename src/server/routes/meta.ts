// The Meta tag's handlers and the probes beside the API (the operations of
// src/contract/operations/meta.ts): health, readiness, metrics, backups and the document.
import type { META_ROUTES } from "../../contract/operations/meta.js";
import type { StoreData } from "../../store/indexed/store-state.js";
import { ApiHttpError, notFound } from "../errors.js";
import { serveMetrics, type MetricsRoute } from "../metrics/metrics-route.js";
import type { Readiness } from "../ops/readiness.js";
import { takeBackup } from "./backup.js";
import { getOpenApi } from "./openapi.js";
import type { HandlersFor } from "./register.js";
import type { TokenAttempts } from "../metrics/metrics-route.js";

export interface MetaHandlersDeps extends TokenAttempts {
  /** GET /readyz; without it the app is ready whenever it answers. */
  readiness?: () => Promise<Readiness>;
  /** GET /metrics on this port, behind its own token (--metrics-token); 404 without. */
  metricsRoute?: MetricsRoute;
  /** POST /v1/admin/backup: the store's consistent snapshot; 404 without. */
  snapshot?: () => Promise<StoreData>;
  /** POST /v1/admin/reset: back to the seed (`serve --ephemeral`); 404 without. */
  reset?: () => Promise<void>;
}

/** The handler of each operation of the Meta tag, and of each probe. */
export function metaHandlers(deps: MetaHandlersDeps): HandlersFor<(typeof META_ROUTES)[number]> {
  return {
    health: () => ({ status: "ok" }),
    ready: () => ready(deps.readiness),
    metrics: (event) => serveMetrics(event, deps.metricsRoute, deps),
    takeBackup: () => takeBackup(deps.snapshot),
    resetServer: async (event) => {
      if (!deps.reset) throw notFound("only a throwaway server (serve --ephemeral) can be reset");
      await deps.reset();
      event.res.status = 204;
      return null;
    },
    getOpenApi,
  };
}

/** 200 {status: "ready"}, or 503 storage_unavailable naming each part that did not answer. */
async function ready(readiness: (() => Promise<Readiness>) | undefined): Promise<{ status: string }> {
  const answer = readiness ? await readiness() : { ready: true as const };
  if (!answer.ready) throw new ApiHttpError("storage_unavailable", `not ready: ${answer.failures.join("; ")}`, { "retry-after": "5" });
  return { status: "ready" };
}
