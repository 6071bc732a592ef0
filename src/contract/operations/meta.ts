// The Meta tag and the probes beside the API: the document, backups, health, readiness, metrics.
// Handlers: src/server/routes/meta.ts.
import { HEALTH_PATH, METRICS_PATH, READY_PATH } from "../constants.js";
import * as z from "zod";
import { COMPONENTS, componentRef } from "../components.js";
import type { RouteEntry } from "../route-types.js";

const CHAOS_SPEC_MAX_LENGTH = 200;
/** The characters a spec is made of; the grammar itself is checked by parseChaosSpec. */
const CHAOS_SPEC_PATTERN = "^[a-z0-9=@%., ]*$";

export const ChaosSettingSchema = z
  .strictObject({
    spec: z
      .string({ error: "is required" })
      .max(CHAOS_SPEC_MAX_LENGTH, { error: `must be at most ${CHAOS_SPEC_MAX_LENGTH} characters` })
      .regex(new RegExp(CHAOS_SPEC_PATTERN), { error: "must be kind=value parts, as latency=200ms@10%,status=503@2%,reset=1%" })
      .describe("The faults, as `serve --chaos` takes them: `latency=200ms@10%,status=503@2%,reset=1%`; `off` (or empty) for none. Statuses: 429, 500, 503."),
    seed: z.int().min(0).max(2 ** 31 - 1).meta({ format: "int32" }).optional().describe("Starts the fault sequence again from this seed; the current seed when absent."),
  })
  .describe("Faults on purpose, for testing clients: the same seed gives the same faults to the same sequence of requests.")
  .register(COMPONENTS, { id: "ChaosSetting" });

export const ChaosStateSchema = z
  .object({
    spec: z.string().meta({ maxLength: CHAOS_SPEC_MAX_LENGTH, pattern: CHAOS_SPEC_PATTERN }).describe("The faults in force, normalised; `off` when none."),
    seed: z.int().min(0).meta({ format: "int32" }).describe("The seed of the fault sequence."),
  })
  .describe("The faults in force.")
  .register(COMPONENTS, { id: "ChaosState" });

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
    operationId: "setChaos",
    method: "PUT",
    path: "/admin/chaos",
    access: "admin",
    stability: "stable",
    request: { body: ChaosSettingSchema },
    doc: {
      tag: "meta",
      summary: "Change the faults on purpose (admin; `serve --ephemeral` only)",
      description:
        "For test suites: one test turns faults on, the next turns them off (`off`). Latency is added, an error status answers " +
        "with code `injected_fault` (and Retry-After on 429 and 503), a reset cuts the connection before any answer. Probes, " +
        "/metrics and /v1/admin/* never meet a fault. A spec that cannot be read is a 400 naming the part. A server over a db answers 404.",
      success: { status: 200, description: "The faults now in force.", schema: componentRef(ChaosStateSchema) },
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
