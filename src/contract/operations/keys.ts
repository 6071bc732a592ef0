// The Keys tag: API keys, admin only but for the caller's own key. Handlers: src/server/routes/keys.ts.
import { componentRef } from "../components.js";
import { INSTANT_MAX_LENGTH, KEY_ID_MAX_LENGTH, KEY_ID_PATTERN } from "../constants.js";
import { MAX_KEYS } from "../limits.js";
import { documentedText } from "../parameters.js";
import type { JsonSchema, RouteEntry } from "../route-types.js";
import { CreatedKeySchema, KeyViewSchema, NewKeySchema, RotateKeySchema } from "../schemas.js";
import { IDEMPOTENCY_ERRORS, IDEMPOTENCY_KEY } from "./shared.js";

const KEY_ID = { id: documentedText(KEY_ID_MAX_LENGTH, KEY_ID_PATTERN).describe("The key's id. An id of another form names no key: 404.") };

const INSTANT: JsonSchema = { type: "string", format: "date-time", maxLength: INSTANT_MAX_LENGTH };

/** One rate-limit window as GET /keys/current reports it. */
const USAGE_WINDOW: JsonSchema = {
  type: "object",
  properties: {
    limit: { type: "integer", format: "int64", minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    remaining: { type: "integer", format: "int64", minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: "Requests left in this window." },
    resetAt: { ...INSTANT, description: "When the window starts afresh (UTC-aligned)." },
  },
  required: ["limit", "remaining", "resetAt"],
  additionalProperties: false,
};

export const KEY_ROUTES = [
  {
    operationId: "listKeys",
    method: "GET",
    path: "/keys",
    access: "admin",
    stability: "stable",
    doc: {
      tag: "keys",
      summary: "List every API key (admin)",
      description: "Without secrets or hashes.",
      success: { status: 200, description: "Every key.", schema: { type: "array", maxItems: MAX_KEYS, items: componentRef(KeyViewSchema) } },
    },
  },
  {
    operationId: "createKey",
    method: "POST",
    path: "/keys",
    access: "admin",
    stability: "stable",
    request: { body: NewKeySchema, headers: { "Idempotency-Key": IDEMPOTENCY_KEY } },
    doc: {
      tag: "keys",
      summary: "Create an API key (admin)",
      description:
        "The secret is in this response and nowhere else. With an Idempotency-Key, a retry by the same caller " +
        "gets the same key and secret again (stored encrypted under the caller's own key) instead of a second key.",
      success: {
        status: 201,
        description: "The key, with its secret.",
        schema: componentRef(CreatedKeySchema),
        headers: ["Location", "Idempotent-Replayed"],
      },
      errors: [...IDEMPOTENCY_ERRORS, "TooManyKeys"],
    },
  },
  {
    operationId: "revokeKey",
    method: "DELETE",
    path: "/keys/{id}",
    access: "admin",
    stability: "stable",
    request: { path: KEY_ID },
    doc: {
      tag: "keys",
      summary: "Revoke an API key (admin)",
      description: "The key is refused from the next request on.",
      success: { status: 204, description: "Revoked." },
      errors: ["NotFound"],
    },
  },
  {
    operationId: "rotateKey",
    method: "POST",
    path: "/keys/{id}/rotate",
    access: "admin",
    stability: "stable",
    request: { path: KEY_ID, body: RotateKeySchema },
    doc: {
      tag: "keys",
      summary: "Rotate an API key's secret (admin)",
      description:
        "A new secret for the same key id, plan and counters, in this response and nowhere else. The old secret " +
        "keeps working for graceSeconds (on every instance), then gets 401.",
      success: { status: 200, description: "The key, with its new secret.", schema: componentRef(CreatedKeySchema) },
      errors: ["NotFound"],
    },
  },
  {
    operationId: "getCurrentKey",
    method: "GET",
    path: "/keys/current",
    access: "key",
    stability: "stable",
    doc: {
      tag: "keys",
      summary: "The calling key, its usage and the server's version",
      description:
        "Any valid key may read its own record and what is left of its minute and day windows. " +
        "The request is counted like any other (the one gate that authenticates also counts, so no route " +
        "lets a key be tried for free); the usage is read after that count, so it includes this request.",
      success: {
        status: 200,
        description: "The key (as in listKeys), its usage, and the server's package version.",
        schema: {
          type: "object",
          properties: {
            key: componentRef(KeyViewSchema),
            usage: {
              type: "object",
              properties: {
                minute: USAGE_WINDOW,
                day: USAGE_WINDOW,
                bannedUntil: { ...INSTANT, type: ["string", "null"], description: "Set while the key is banned." },
              },
              required: ["minute", "day", "bannedUntil"],
              additionalProperties: false,
            },
            server: {
              type: "object",
              properties: { version: { type: "string", maxLength: 64, pattern: "^\\d+\\.\\d+\\.\\d+" } },
              required: ["version"],
              additionalProperties: false,
            },
          },
          required: ["key", "usage", "server"],
          additionalProperties: false,
        },
      },
    },
  },
] as const satisfies readonly RouteEntry[];
