// The Meta tag's handlers and the probes beside the API (the operations of
// src/contract/operations/meta.ts): health, readiness, metrics, backups and the document.
import type { META_ROUTES } from "../../contract/operations/meta.js";
import type { StoreData } from "../../store/indexed/store-state.js";
import { ApiHttpError, notFound } from "../errors.js";
import { serveMetrics, type MetricsRoute } from "../metrics/metrics-route.js";
import type { Readiness } from "../ops/readiness.js";
import { takeBackup } from "./backup.js";
import { setChaos, type ChaosDeps } from "./chaos.js";
import type { ChaosControl } from "../chaos/chaos-control.js";
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
  /** Faults on purpose (--chaos): said on /readyz; PUT /v1/admin/chaos changes them when settable. */
  chaos?: ChaosDeps;
}

/** The handler of each operation of the Meta tag, and of each probe. */
export function metaHandlers(deps: MetaHandlersDeps): HandlersFor<(typeof META_ROUTES)[number]> {
  return {
    health: () => ({ status: "ok" }),
    ready: () => ready(deps.readiness, deps.chaos?.control),
    metrics: (event) => serveMetrics(event, deps.metricsRoute, deps),
    takeBackup: () => takeBackup(deps.snapshot),
    resetServer: async (event) => {
      if (!deps.reset) throw notFound("only a throwaway server (serve --ephemeral) can be reset");
      await deps.reset();
      event.res.status = 204;
      return null;
    },
    setChaos: (event) => setChaos(event, deps.chaos),
    getOpenApi,
  };
}

/** 200 {status: "ready"} (with the faults in force, when there are), or 503 storage_unavailable naming each part that did not answer. */
async function ready(readiness: (() => Promise<Readiness>) | undefined, chaos: ChaosControl | undefined): Promise<{ status: string; chaos?: string }> {
  const answer = readiness ? await readiness() : { ready: true as const };
  if (!answer.ready) throw new ApiHttpError("storage_unavailable", `not ready: ${answer.failures.join("; ")}`, { "retry-after": "5" });
  // Whoever wonders why requests fail finds it here: the faults are on purpose.
  return chaos?.on ? { status: "ready", chaos: `${chaos.spec} (seed ${chaos.seed})` } : { status: "ready" };
}
