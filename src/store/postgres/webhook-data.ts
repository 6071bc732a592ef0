// Webhook endpoints and their deliveries as whole data, for export, import, migrate and backup.
// They must travel with the rest: an endpoint without its secret cannot sign, a pending delivery
// left behind is a change its receiver is never told of, and a delivery counter that starts
// again hands out `webhook-id`s (msg_<delivery id>) that receivers already saw and drop.
import type { PoolClient } from "pg";
import type { StoreData } from "../indexed/store-state.js";
import type { DeliveryRecord } from "../delivery-store.js";
import { DELIVERY_COLUMNS, toDeliveryRecord, type DeliveryRow } from "./postgres-delivery-store.js";
import { WEBHOOK_COLUMNS, toWebhookRecord, type WebhookRow } from "./postgres-webhook-store.js";
import { nextValue, setNextValue } from "./sequences.js";

export type WebhookData = Pick<StoreData, "nextWebhookId" | "webhooks" | "nextDeliveryId" | "deliveries">;

/**
 * The endpoints (secrets included) and every delivery, in the caller's transaction. Each pair is
 * left out until its counter has moved, as the db file leaves it out, so both engines give the
 * same data.
 */
export async function readWebhookData(client: PoolClient): Promise<WebhookData> {
  const nextWebhookId = await nextValue(client, "webhooks");
  const nextDeliveryId = await nextValue(client, "webhook_deliveries");
  const webhooks = await client.query<WebhookRow>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks ORDER BY id`);
  const deliveries = await client.query<DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d ORDER BY d.id`);
  return {
    ...(nextWebhookId > 1 ? { nextWebhookId, webhooks: webhooks.rows.map(toWebhookRecord) } : {}),
    ...(nextDeliveryId > 1 ? { nextDeliveryId, deliveries: deliveries.rows.map(toDeliveryRecord) } : {}),
  };
}

/**
 * Inserts the endpoints, then their deliveries as they were (status, attempts, times, payload to
 * the byte), and moves both counters past them. Call it after the pets and orders: the event
 * triggers their inserts fire then find no endpoint, so an import causes no delivery of its own.
 */
export async function writeWebhookData(client: PoolClient, data: WebhookData): Promise<void> {
  const webhooks = data.webhooks ?? [];
  for (const w of webhooks) {
    await client.query(
      `INSERT INTO webhooks (id, url, types, description, enabled, secret, previous_secret, previous_secret_until, created_at, updated_at)
       OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [w.id, w.url, w.types, w.description, w.enabled, w.secret, w.previousSecret, w.previousSecretUntil, w.createdAt, w.updatedAt],
    );
  }
  const deliveries = data.deliveries ?? [];
  if (deliveries.length > 0) await insertDeliveries(client, deliveries);
  const nextWebhook = Math.max(data.nextWebhookId ?? 1, ...webhooks.map((w) => w.id + 1));
  if (nextWebhook > 1) await setNextValue(client, "webhooks", nextWebhook);
  const nextDelivery = Math.max(data.nextDeliveryId ?? 1, ...deliveries.map((d) => d.id + 1));
  if (nextDelivery > 1) await setNextValue(client, "webhook_deliveries", nextDelivery);
}

/** One statement for all of them: an endpoint keeps up to a thousand finished deliveries. No lease: no instance holds one yet. */
async function insertDeliveries(client: PoolClient, deliveries: readonly DeliveryRecord[]): Promise<void> {
  const column = <K extends keyof DeliveryRecord>(name: K) => deliveries.map((d) => d[name]);
  await client.query(
    `INSERT INTO webhook_deliveries (id, webhook_id, event_id, type, payload, status, attempts, created_at, next_attempt_at,
       last_attempt_at, last_status_code, last_error, last_response, last_duration_ms) OVERRIDING SYSTEM VALUE
     SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::int[], $8::timestamptz[],
       $9::timestamptz[], $10::timestamptz[], $11::int[], $12::text[], $13::text[], $14::float8[])`,
    [
      column("id"),
      column("webhookId"),
      column("eventId"),
      column("type"),
      column("payload"),
      column("status"),
      column("attempts"),
      column("createdAt"),
      column("nextAttemptAt"),
      column("lastAttemptAt"),
      column("lastStatusCode"),
      column("lastError").map(storable),
      column("lastResponse").map(storable),
      column("lastDurationMs"),
    ],
  );
}

/** An answer kept by a petstore that stored NUL (the file engine did) as the server now keeps it: PostgreSQL's text refuses NUL. */
function storable(text: string | null): string | null {
  return text?.replaceAll("\u0000", "\ufffd") ?? null;
}
