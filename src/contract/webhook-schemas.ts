// Webhook endpoints and what they are sent: the bodies of the Webhooks tag as zod schemas, built on
// the plain values of webhook-values.ts (event types, URL rules), defined once for server, document and client.
import * as z from "zod";
import { COMPONENTS } from "./components.js";
import { INSTANT_MAX_LENGTH, LIST_LIMIT_MAX } from "./constants.js";
import {
  DEFAULT_SECRET_GRACE_SECONDS,
  DELIVERY_STATUSES,
  MAX_SECRET_GRACE_SECONDS,
  WEBHOOK_DESCRIPTION_MAX_LENGTH,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SECRET_PATTERN,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_URL_MAX_LENGTH,
  webhookUrlProblem,
} from "./webhook-values.js";

// The plain values live in webhook-values.ts (zod-free, for the client); the server reads them here too.
export {
  DEFAULT_SECRET_GRACE_SECONDS,
  DELIVERY_STATUSES,
  MAX_SECRET_GRACE_SECONDS,
  WEBHOOK_DESCRIPTION_MAX_LENGTH,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SECRET_PATTERN,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_URL_MAX_LENGTH,
  webhookUrlProblem,
  type WebhookEventType,
} from "./webhook-values.js";

const KNOWN_TYPES = WEBHOOK_EVENT_TYPES.join(", ");

const urlField = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
    .superRefine((text, ctx) => {
      const problem = webhookUrlProblem(text);
      if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
    })
    .meta({ format: "uri", maxLength: WEBHOOK_URL_MAX_LENGTH, description: "Where deliveries are POSTed: http or https, no user info." });

const eventType = z.enum(WEBHOOK_EVENT_TYPES, { error: (issue) => `must be one of ${KNOWN_TYPES}, got ${JSON.stringify(String(issue.input)).slice(0, 60)}` });

const typesField = () =>
  z
    .array(eventType, { error: "must be an array of event types" })
    .max(WEBHOOK_EVENT_TYPES.length * 2, { error: `must list at most ${WEBHOOK_EVENT_TYPES.length * 2} types` })
    .describe("The event types sent to it; empty or absent: all of them.");

const description = () =>
  z.string({ error: "must be a string" }).max(WEBHOOK_DESCRIPTION_MAX_LENGTH, { error: `must be at most ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters` });

const instant = () => z.iso.datetime().meta({ maxLength: INSTANT_MAX_LENGTH });
const webhookId = () => z.int().min(1).meta({ format: "int64" });

export const WebhookEventTypeSchema = eventType.register(COMPONENTS, { id: "WebhookEventType" });

export const NewWebhookSchema = z
  .strictObject({ url: urlField(), types: typesField().optional(), description: description().optional() })
  .describe("Request body for adding a webhook endpoint.")
  .register(COMPONENTS, { id: "NewWebhook" });

export const WebhookPatchSchema = z
  .strictObject({
    url: urlField().optional(),
    types: typesField().optional(),
    description: description().nullable().optional(),
    enabled: z.boolean({ error: "must be true or false" }).optional(),
  })
  .describe("The fields to change (JSON Merge Patch); enabling again sends nothing missed while disabled.")
  .register(COMPONENTS, { id: "WebhookPatch" });

const endpointFields = {
  id: webhookId(),
  url: z.string().meta({ format: "uri", maxLength: WEBHOOK_URL_MAX_LENGTH }),
  types: z.array(WebhookEventTypeSchema).meta({ maxItems: WEBHOOK_EVENT_TYPES.length * 2 }).describe("Empty: every type."),
  description: z.string().meta({ maxLength: WEBHOOK_DESCRIPTION_MAX_LENGTH }).nullable(),
  enabled: z.boolean(),
  createdAt: instant(),
  updatedAt: instant(),
};

export const WebhookSchema = z
  .object(endpointFields)
  .describe("A webhook endpoint, without its signing secret.")
  .register(COMPONENTS, { id: "Webhook" });

export const WebhooksSchema = z
  .array(WebhookSchema)
  .meta({ maxItems: LIST_LIMIT_MAX })
  .describe("A page of webhook endpoints, ordered by id.")
  .register(COMPONENTS, { id: "Webhooks" });

export const CreatedWebhookSchema = z
  .object({
    ...endpointFields,
    secret: z.string().meta({ maxLength: 50, pattern: WEBHOOK_SECRET_PATTERN }).describe("The signing secret (Standard Webhooks), shown only in this answer."),
  })
  .describe("The answer to POST /webhooks: the only time the secret is shown.")
  .register(COMPONENTS, { id: "CreatedWebhook" });

export const DeliveryStatusSchema = z
  .enum(DELIVERY_STATUSES, { error: `must be one of ${DELIVERY_STATUSES.join(", ")}` })
  .register(COMPONENTS, { id: "DeliveryStatus" });

const nullableInstant = () => instant().nullable();

export const WebhookDeliverySchema = z
  .object({
    id: webhookId(),
    webhookId: webhookId(),
    eventId: z.int().min(1).meta({ format: "int64" }).nullable().describe("The event's id (GET /v1/events); null for webhook.test."),
    type: z.enum([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT]),
    status: DeliveryStatusSchema,
    attempts: z.int().min(0).meta({ format: "int32" }),
    createdAt: instant(),
    lastAttemptAt: nullableInstant(),
    nextAttemptAt: nullableInstant().describe("When it is tried next; null once it succeeded or failed."),
    lastStatusCode: z.int().min(100).max(599).meta({ format: "int32" }).nullable(),
    lastError: z.string().meta({ maxLength: 256 }).nullable().describe("Why the last attempt failed: no answer, a refused connection, a status."),
    lastResponse: z.string().meta({ maxLength: 1024 }).nullable().describe("The first 1 KiB of the receiver's last answer."),
    lastDurationMs: z.number().min(0).nullable(),
  })
  .describe("One event sent (or to be sent) to one endpoint.")
  .register(COMPONENTS, { id: "WebhookDelivery" });

export const WebhookDeliveriesSchema = z
  .array(WebhookDeliverySchema)
  .meta({ maxItems: LIST_LIMIT_MAX })
  .describe("A page of deliveries, newest first.")
  .register(COMPONENTS, { id: "WebhookDeliveries" });

export const RotateWebhookSecretSchema = z
  .strictObject({
    graceSeconds: z
      .int({ error: `must be an integer from 0 to ${MAX_SECRET_GRACE_SECONDS}` })
      .min(0, { error: `must be an integer from 0 to ${MAX_SECRET_GRACE_SECONDS}` })
      .max(MAX_SECRET_GRACE_SECONDS, { error: `must be an integer from 0 to ${MAX_SECRET_GRACE_SECONDS}` })
      .meta({ format: "int32" })
      .optional()
      .describe(`How long the replaced secret keeps signing beside the new one, in seconds. Default ${DEFAULT_SECRET_GRACE_SECONDS} (24 h).`),
  })
  .describe("Request body for rotating an endpoint's signing secret.")
  .register(COMPONENTS, { id: "RotateWebhookSecret" });

export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
export type Webhook = z.infer<typeof WebhookSchema>;
export type CreatedWebhook = z.infer<typeof CreatedWebhookSchema>;
export type NewWebhook = z.input<typeof NewWebhookSchema>;
export type WebhookPatch = z.infer<typeof WebhookPatchSchema>;
