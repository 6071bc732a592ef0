// The fields `--json id,name` may name, per kind of record. Each list is checked against the
// record's type: a field added to the contract and left out here fails the type check.
import type { CreatedWebhook, KeyView, Order, Pet, Webhook, WebhookDelivery } from "../../contract/values.js";

/** The keys of `T`, each named once: the object literal must have every key of T and no other. */
function fieldsOf<T>(fields: { readonly [K in keyof Required<T>]: true }): readonly string[] {
  return Object.keys(fields);
}

export const PET_FIELDS = fieldsOf<Pet>({ id: true, name: true, categoryId: true, status: true });
export const ORDER_FIELDS = fieldsOf<Order>({ id: true, petId: true, status: true, createdAt: true, updatedAt: true });
export const KEY_FIELDS = fieldsOf<KeyView>({
  id: true,
  prefix: true,
  plan: true,
  name: true,
  admin: true,
  scopes: true,
  limits: true,
  createdAt: true,
  revokedAt: true,
  lastUsedAt: true,
  expiresAt: true,
  rotatedAt: true,
});
const WEBHOOK_FIELD_SET = { id: true, url: true, types: true, description: true, enabled: true, createdAt: true, updatedAt: true } as const;
export const WEBHOOK_FIELDS = fieldsOf<Webhook>(WEBHOOK_FIELD_SET);
/** `webhooks add` and `rotate-secret`: the endpoint and, this once, its secret. */
export const CREATED_WEBHOOK_FIELDS = fieldsOf<CreatedWebhook>({ ...WEBHOOK_FIELD_SET, secret: true });
export const DELIVERY_FIELDS = fieldsOf<WebhookDelivery>({
  id: true,
  webhookId: true,
  eventId: true,
  type: true,
  status: true,
  attempts: true,
  createdAt: true,
  lastAttemptAt: true,
  nextAttemptAt: true,
  lastStatusCode: true,
  lastError: true,
  lastResponse: true,
  lastDurationMs: true,
});
