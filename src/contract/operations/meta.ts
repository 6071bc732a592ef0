// The Meta tag and the probes beside the API: the document, backups, health, readiness, metrics.
// Handlers: src/server/routes/meta.ts.
import { HEALTH_PATH, METRICS_PATH, READY_PATH } from "../constants.js";
import type { RouteEntry } from "../route-types.js";

export const META_ROUTES = [
  {
    operationId: "health",
    method: "GET",
    path: HEALTH_PATH,
    outsideApi: true,
    access: "public",
    unlimited: true,
    stability: "stable",
  },
  {
    // Readiness for load balancers and orchestrators: 503 while the store or Redis does not answer.
    operationId: "ready",
    method: "GET",
    path: READY_PATH,
    outsideApi: true,
    access: "public",
    unlimited: true,
    stability: "stable",
  },
  {
    // Served only with --metrics-token, which it checks itself; 404 otherwise.
    operationId: "metrics",
    method: "GET",
    path: METRICS_PATH,
    outsideApi: true,
    access: "public",
    unlimited: true,
    stability: "stable",
  },
  {
    operationId: "takeBackup",
    method: "POST",
    path: "/admin/backup",
    access: "admin",
    stability: "stable",
    doc: {
      tag: "meta",
      summary: "A consistent copy of the whole store (admin)",
      description:
        "Pets, keys with their hashes, orders, idempotency records and id counters, in the db file's form, taken " +
        "between two group commits (or in one REPEATABLE READ transaction over PostgreSQL) while requests go on. " +
        "`petstore db backup <file>` saves it; `petstore serve --db <file>` opens the file as is. It holds key hashes: keep it private.",
      success: { status: 200, description: "The store, as a db file.", schema: { type: "object" } },
    },
  },
  {
    operationId: "resetServer",
    method: "POST",
    path: "/admin/reset",
    access: "admin",
    stability: "stable",
    doc: {
      tag: "meta",
      summary: "Restore the seed (admin; `serve --ephemeral` only)",
      description:
        "For test suites: the store becomes the seed again (pets, orders, keys, ids, the next ids), and rate-limit " +
        "counters, bans, idempotency records and the event backlog are emptied. Open event streams end with a `reset` " +
        "event. A server over a db answers 404: its data is never thrown away by a request.",
      success: { status: 204, description: "Reset: the next request sees the seed." },
      errors: ["NotFound"],
    },
  },
  {
    operationId: "getOpenApi",
    method: "GET",
    path: "/openapi.json",
    access: "public",
    stability: "stable",
    doc: {
      tag: "meta",
      summary: "This document",
      description: "Served without a key; still counted against the caller's rate limit.",
      success: {
        status: 200,
        description: "The OpenAPI 3.1 document.",
        schema: {
          type: "object",
          properties: { openapi: { type: "string", maxLength: 16, pattern: "^3\\.1\\." }, info: { type: "object" }, paths: { type: "object" } },
          required: ["openapi", "info", "paths"],
        },
      },
    },
  },
] as const satisfies readonly RouteEntry[];
