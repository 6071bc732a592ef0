// The document's `webhooks` section: one POST per type a delivery can carry, its body the type's
// component from webhook-events.ts, its Standard Webhooks headers the parameters a receiver checks.
import { EVENT_TYPES } from "./events.js";
import type { JsonSchema } from "./route-types.js";
import { TAGS } from "./tags.js";
import { WEBHOOK_BODY_TYPES, webhookBodyComponent, type WebhookBodyType, type WebhookData } from "./webhook-events.js";

const SIGNATURE = "v1,[A-Za-z0-9+/]{43}=";

/** components.parameters: the Standard Webhooks 1.0 headers of every delivery. */
export const WEBHOOK_HEADER_PARAMETERS: Record<string, JsonSchema> = {
  WebhookId: {
    name: "webhook-id",
    in: "header",
    required: true,
    description: "`msg_<delivery id>`: the same on every retry of this event to this endpoint. Delivery is at least once: drop a body whose id you have seen.",
    schema: { type: "string", pattern: "^msg_[0-9]{1,19}$", maxLength: 23 },
  },
  WebhookTimestamp: {
    name: "webhook-timestamp",
    in: "header",
    required: true,
    description: "When this attempt was signed, in Unix seconds: refuse one far from your clock (Standard Webhooks libraries allow 5 minutes).",
    schema: { type: "string", pattern: "^[0-9]{1,12}$", maxLength: 12 },
  },
  WebhookSignature: {
    name: "webhook-signature",
    in: "header",
    required: true,
    description:
      "`v1,<base64 HMAC-SHA256 of webhook-id.webhook-timestamp.body>` keyed with the endpoint's secret (the base64 after `whsec_`); " +
      "two, space-separated, while a rotated secret is in its grace. Verify with any Standard Webhooks library before trusting the body.",
    schema: { type: "string", pattern: `^${SIGNATURE}( ${SIGNATURE})*$`, maxLength: 200 },
  },
};

const WHAT: Record<WebhookBodyType, { summary: string; description: string }> = {
  "pet.created": { summary: "A pet was created", description: "`data` is the pet as GET /pets/{petId} answers it." },
  "pet.updated": { summary: "A pet was changed", description: "`data` is the pet after the change. Several changes committed together are one event." },
  "pet.deleted": { summary: "A pet was deleted", description: "`data` is the deleted pet's id." },
  "order.created": { summary: "An order was placed", description: "`data` is the order as GET /store/orders/{orderId} answers it." },
  "order.updated": { summary: "An order changed status", description: "`data` is the order after the change." },
  "webhook.disabled": {
    summary: "An endpoint was disabled",
    description:
      "The server disabled an endpoint because no delivery to it succeeded for the whole retry period; `data` names it (its id, " +
      "its URL's origin, never the path) and the delivery whose failure ended the period. Never sent to the disabled endpoint " +
      "itself. Enabling it again (PATCH enabled: true) sends nothing missed.",
  },
  "webhook.test": {
    summary: "A test asked for with POST /webhooks/{webhookId}/test",
    description: "Sent to that endpoint only, whatever its `types`; `id` is null and `data` names the endpoint.",
  },
};

const TO_SUBSCRIBERS = "Sent, with the same id as in GET /events, to each enabled endpoint whose `types` list it (empty: all).";

const AT = "2026-05-04T12:00:00.000Z";
const PET = { id: 42, name: "Rex", categoryId: 1, status: "available" } as const;
const ORDER = { id: 7, petId: 42, status: "placed", createdAt: AT, updatedAt: AT } as const;

/** An example body of each type, checked against its schema by the linters and the tests. */
export const WEBHOOK_EXAMPLES: { [T in WebhookBodyType]: { id: number | null; type: T; timestamp: string; data: WebhookData[T] } } = {
  "pet.created": { id: 1200, type: "pet.created", timestamp: AT, data: PET },
  "pet.updated": { id: 1201, type: "pet.updated", timestamp: AT, data: { ...PET, status: "pending" } },
  "pet.deleted": { id: 1202, type: "pet.deleted", timestamp: AT, data: { id: 42 } },
  "order.created": { id: 1203, type: "order.created", timestamp: AT, data: ORDER },
  "order.updated": { id: 1204, type: "order.updated", timestamp: AT, data: { ...ORDER, status: "approved" } },
  "webhook.disabled": {
    id: 1205,
    type: "webhook.disabled",
    timestamp: AT,
    data: { id: 3, origin: "https://hooks.example.com", description: null, deliveryId: 880, lastError: "answered 503" },
  },
  "webhook.test": { id: null, type: "webhook.test", timestamp: AT, data: { webhookId: 3 } },
};

const ANSWERS = {
  "2XX": {
    description:
      "Accepted: any 2xx ends this delivery. Any other answer (another status, a redirect, which is not followed, no answer within the timeout, " +
      "a refused or reset connection) is retried with exponential backoff and jitter, honouring Retry-After, until the retry period " +
      "ends (`serve --webhook-retry-for`, 3 days by default): then the delivery is failed. The first 1 KiB of each answer shows in GET /webhooks/{webhookId}/deliveries.",
  },
};

/** `pet.created` -> `petCreated` (generators add their own "Webhook" to the names they derive). */
const operationId = (type: WebhookBodyType) => webhookBodyComponent(type).replace(/Event$/, "").replace(/^./, (first) => first.toLowerCase());

function webhookOperation(type: WebhookBodyType): JsonSchema {
  return {
    post: {
      operationId: operationId(type),
      summary: WHAT[type].summary,
      description:
        `${WHAT[type].description}${(EVENT_TYPES as readonly string[]).includes(type) ? ` ${TO_SUBSCRIBERS}` : ""} ` +
        "Sent as `POST <endpoint url>` with `Content-Type: application/json`, `User-Agent: petstore/<version>` and the Standard Webhooks signature headers.",
      tags: [TAGS.webhooks.name],
      // The receiver authenticates the sender by the signature headers; no API key is sent.
      security: [],
      parameters: Object.keys(WEBHOOK_HEADER_PARAMETERS).map((name) => ({ $ref: `#/components/parameters/${name}` })),
      requestBody: {
        required: true,
        description: `The event, as signed. One schema for every type: #/components/schemas/WebhookEvent.`,
        content: {
          "application/json": { schema: { $ref: `#/components/schemas/${webhookBodyComponent(type)}` }, example: WEBHOOK_EXAMPLES[type] },
        },
      },
      responses: ANSWERS,
    },
  };
}

/** The `webhooks` section, by event type, in the order the types are listed. */
export function webhookOperations(): Record<string, JsonSchema> {
  return Object.fromEntries(WEBHOOK_BODY_TYPES.map((type) => [type, webhookOperation(type)]));
}
