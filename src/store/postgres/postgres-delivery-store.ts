import type { Pool } from "pg";
import type { AttemptOutcome, ClaimQuery, ClaimedDelivery, DeliveryQuery, DeliveryRecord, DeliveryStatus, DeliveryStore } from "../delivery-store.js";
import { storageCall } from "./storage-errors.js";
import { toWebhookRecord, type WebhookRow } from "./postgres-webhook-store.js";

/** A `webhook_deliveries` row as the driver reads it (the whole-data reader reads the same columns). */
export interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string | null;
  type: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  created_at: Date;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  last_response: string | null;
  last_duration_ms: number | null;
}

/** A delivery with its endpoint's columns beside it (the endpoint's id and times under other names). */
interface ClaimedRow extends DeliveryRow, Omit<WebhookRow, "id" | "created_at" | "updated_at"> {
  webhook_created_at: Date;
  webhook_updated_at: Date;
}

/** Every column of a delivery record, of the table aliased `d`. */
export const DELIVERY_COLUMNS =
  "d.id, d.webhook_id, d.event_id, d.type, d.payload, d.status, d.attempts, d.created_at, d.next_attempt_at, " +
  "d.last_attempt_at, d.last_status_code, d.last_error, d.last_response, d.last_duration_ms";

/**
 * Deliveries in PostgreSQL (migration 11), shared by every instance. A claim takes due rows with
 * FOR UPDATE SKIP LOCKED and leases them, so of several instances claiming at once each row goes
 * to one; a lease that ends unrecorded (its instance died mid-send) makes the row claimable again.
 */
export class PostgresDeliveryStore implements DeliveryStore {
  readonly #pool: Pool;
  readonly #database: string;

  constructor(pool: Pool, database: string) {
    this.#pool = pool;
    this.#database = database;
  }

  async claim({ now, limit, skipWebhooks, leaseMs }: ClaimQuery): Promise<ClaimedDelivery[]> {
    const rows = await this.#query<ClaimedRow>(
      `WITH due AS (
         SELECT id FROM webhook_deliveries
          WHERE status = 'pending' AND (attempts = 0 OR next_attempt_at <= $1)
            AND (lease_until IS NULL OR lease_until <= $1) AND NOT (webhook_id = ANY ($3::bigint[]))
          ORDER BY next_attempt_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE webhook_deliveries d SET lease_until = $1::timestamptz + make_interval(secs => $4)
         FROM due, webhooks w WHERE d.id = due.id AND w.id = d.webhook_id
       RETURNING ${DELIVERY_COLUMNS}, w.url, w.types, w.description, w.enabled, w.secret, w.previous_secret, w.previous_secret_until,
         w.created_at AS webhook_created_at, w.updated_at AS webhook_updated_at`,
      [now, limit, skipWebhooks, leaseMs / 1000],
    );
    return rows.sort((a, b) => Number(a.id) - Number(b.id)).map((row) => ({ delivery: toDeliveryRecord(row), webhook: toWebhook(row) }));
  }

  async record(id: number, outcome: AttemptOutcome): Promise<DeliveryRecord | undefined> {
    const [row] = await this.#query<DeliveryRow>(
      `UPDATE webhook_deliveries d SET
         status = CASE WHEN $2 THEN 'succeeded' WHEN d.status = 'failed' OR $3::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
         attempts = d.attempts + 1,
         next_attempt_at = CASE WHEN $2 OR d.status = 'failed' THEN NULL ELSE $3 END,
         lease_until = NULL, last_attempt_at = $4, last_status_code = $5, last_error = $6, last_response = $7, last_duration_ms = $8
       WHERE d.id = $1 RETURNING ${DELIVERY_COLUMNS}`,
      [id, outcome.succeeded, outcome.nextAttemptAt, outcome.at, outcome.statusCode, outcome.error, outcome.response, outcome.durationMs],
    );
    return row && toDeliveryRecord(row);
  }

  async get(webhookId: number, id: number): Promise<DeliveryRecord | undefined> {
    const [row] = await this.#query<DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.id = $1 AND d.webhook_id = $2`, [id, webhookId]);
    return row && toDeliveryRecord(row);
  }

  async list({ webhookId, status, beforeId = Number.MAX_SAFE_INTEGER, limit }: DeliveryQuery) {
    const rows = await this.#query<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.webhook_id = $1 AND d.id < $2 AND ($3::text IS NULL OR d.status = $3)
        ORDER BY d.id DESC LIMIT $4`,
      [webhookId, beforeId, status ?? null, limit + 1],
    );
    return { deliveries: rows.slice(0, limit).map(toDeliveryRecord), hasMore: rows.length > limit };
  }

  async retryNow(webhookId: number, id: number, now: Date): Promise<DeliveryRecord | undefined> {
    const [row] = await this.#query<DeliveryRow>(
      `UPDATE webhook_deliveries d SET status = 'pending', next_attempt_at = $3 WHERE d.id = $1 AND d.webhook_id = $2 RETURNING ${DELIVERY_COLUMNS}`,
      [id, webhookId, now],
    );
    return row && toDeliveryRecord(row);
  }

  async createTest(webhookId: number, payload: string, now: Date): Promise<DeliveryRecord | undefined> {
    const [row] = await this.#query<DeliveryRow>(
      `INSERT INTO webhook_deliveries AS d (webhook_id, event_id, type, payload, created_at, next_attempt_at)
         SELECT id, NULL, 'webhook.test', $2, $3, $3 FROM webhooks WHERE id = $1 RETURNING ${DELIVERY_COLUMNS}`,
      [webhookId, payload, now],
    );
    if (row) await this.#query("SELECT pg_notify('petstore_events', '')", []);
    return row && toDeliveryRecord(row);
  }

  async pendingCount(): Promise<number> {
    const [row] = await this.#query<{ count: string }>("SELECT count(*) AS count FROM webhook_deliveries WHERE status = 'pending'", []);
    return Number(row?.count ?? 0);
  }

  #query<R extends object>(sql: string, values: unknown[]): Promise<R[]> {
    return storageCall(this.#database, async () => (await this.#pool.query<R>(sql, values)).rows);
  }
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function toDeliveryRecord(row: DeliveryRow): DeliveryRecord {
  return {
    id: Number(row.id),
    webhookId: Number(row.webhook_id),
    eventId: row.event_id === null ? null : Number(row.event_id),
    type: row.type,
    payload: row.payload,
    status: row.status,
    attempts: row.attempts,
    createdAt: row.created_at.toISOString(),
    nextAttemptAt: iso(row.next_attempt_at),
    lastAttemptAt: iso(row.last_attempt_at),
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    lastResponse: row.last_response,
    lastDurationMs: row.last_duration_ms,
  };
}

function toWebhook(row: ClaimedRow) {
  return toWebhookRecord({ ...row, id: row.webhook_id, created_at: row.webhook_created_at, updated_at: row.webhook_updated_at });
}
