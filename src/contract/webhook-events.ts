// What a webhook endpoint is sent: the JSON body of a delivery for each event type, defined once.
// The server types the bodies it signs with these, and the document's `webhooks` section and its
// components are generated from them.
import * as z from "zod";
import { COMPONENTS } from "./components.js";
import { INSTANT_MAX_LENGTH } from "./constants.js";
import { EVENT_TYPES, type EventType } from "./events.js";
import { OrderSchema, PetSchema, type Order, type Pet } from "./schemas.js";
import { WEBHOOK_DESCRIPTION_MAX_LENGTH, WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT, WEBHOOK_URL_MAX_LENGTH } from "./webhook-schemas.js";

/** Every type a delivery can carry: the events of GET /v1/events, webhook.disabled and webhook.test. */
export const WEBHOOK_BODY_TYPES = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT] as const;
export type WebhookBodyType = (typeof WEBHOOK_BODY_TYPES)[number];

const int64 = (description: string) => z.int().min(1).meta({ format: "int64", description });
const instant = () => z.iso.datetime().meta({ maxLength: INSTANT_MAX_LENGTH });

export const DeletedPetSchema = z
  .object({ id: int64("The deleted pet's id.") })
  .describe("What is left of a deleted pet: its id.")
  .register(COMPONENTS, { id: "DeletedPet" });

export const WebhookTestDataSchema = z
  .object({ webhookId: int64("The endpoint the test was asked for.") })
  .describe("The data of webhook.test: the endpoint it was sent to.")
  .register(COMPONENTS, { id: "WebhookTestData" });

export const WebhookDisabledDataSchema = z
  .object({
    id: int64("The endpoint that was disabled."),
    origin: z
      .string()
      .meta({ format: "uri", maxLength: WEBHOOK_URL_MAX_LENGTH })
      .nullable()
      .describe("Its URL's origin (scheme, host, port), never the path or query, which may hold a token: this event goes to other endpoints."),
    description: z.string().meta({ maxLength: WEBHOOK_DESCRIPTION_MAX_LENGTH }).nullable().describe("Its description."),
    deliveryId: int64("The delivery whose failure, at the end of its retry window, disabled the endpoint."),
    lastError: z.string().meta({ maxLength: 256 }).nullable().describe("Why that delivery's last attempt failed."),
  })
  .describe("The data of webhook.disabled: which endpoint, and the failure that ended it; never its URL's path nor its secret.")
  .register(COMPONENTS, { id: "WebhookDisabledData" });

/** The record each type's `data` is. */
const DATA = {
  "pet.created": PetSchema,
  "pet.updated": PetSchema,
  "pet.deleted": DeletedPetSchema,
  "order.created": OrderSchema,
  "order.updated": OrderSchema,
  "webhook.disabled": WebhookDisabledDataSchema,
  "webhook.test": WebhookTestDataSchema,
} as const satisfies Record<WebhookBodyType, z.ZodType>;

export interface WebhookData {
  "pet.created": Pet;
  "pet.updated": Pet;
  "pet.deleted": z.infer<typeof DeletedPetSchema>;
  "order.created": Order;
  "order.updated": Order;
  "webhook.disabled": z.infer<typeof WebhookDisabledDataSchema>;
  "webhook.test": z.infer<typeof WebhookTestDataSchema>;
}

/** `pet.created` -> `PetCreatedEvent`: the component name of that type's body. */
export function webhookBodyComponent(type: WebhookBodyType): string {
  return `${type.replace(/(^|[.-])([a-z])/g, (_match, _separator, letter: string) => letter.toUpperCase())}Event`;
}

/** The body of one type: `id` is the event's in GET /v1/events, null where it has none. */
function bodySchema(type: WebhookBodyType) {
  return z
    .object({
      id: bodyId(type),
      type: z.literal(type),
      timestamp: instant().describe("When the change was committed (webhook.test: when it was asked for), UTC."),
      data: DATA[type],
    })
    .describe(`The body of a ${type} delivery.`)
    .register(COMPONENTS, { id: webhookBodyComponent(type) });
}


function bodyId(type: WebhookBodyType) {
  if ((EVENT_TYPES as readonly string[]).includes(type)) return int64("The event's id in GET /v1/events (the same event, the same id).");
  if (type === WEBHOOK_TEST_EVENT) return z.null().describe("Always null: a test is no event.");
  return int64("An event id, or null: this one is not an event of GET /v1/events.").nullable();
}

/** Each type's body schema, a component of its own. */
export const WEBHOOK_BODIES = Object.fromEntries(WEBHOOK_BODY_TYPES.map((type) => [type, bodySchema(type)])) as Record<
  WebhookBodyType,
  ReturnType<typeof bodySchema>
>;

/** Any delivery's body, told apart by `type` (exactly one matches): the one schema a receiver needs. */
export const WebhookEventSchema = z
  .xor(WEBHOOK_BODY_TYPES.map((type) => WEBHOOK_BODIES[type]))
  .meta({
    discriminator: {
      propertyName: "type",
      mapping: Object.fromEntries(WEBHOOK_BODY_TYPES.map((type) => [type, `#/components/schemas/${webhookBodyComponent(type)}`])),
    },
  })
  .describe("The JSON body of every webhook delivery: {id, type, timestamp, data}, data being the record of its type.")
  .register(COMPONENTS, { id: "WebhookEvent" });

export interface WebhookPayload<T extends WebhookBodyType = WebhookBodyType> {
  id: number | null;
  type: T;
  timestamp: string;
  data: WebhookData[T];
}

/** The body of a delivery, as sent and signed. */
export function webhookPayload<T extends WebhookBodyType>(id: number | null, type: T, timestamp: string, data: WebhookData[T]): string {
  return JSON.stringify({ id, type, timestamp, data } satisfies WebhookPayload<T>);
}

/** The data of a store event of `type`, as the events of GET /v1/events carry it. */
export type StoreEventData = WebhookData[EventType];
