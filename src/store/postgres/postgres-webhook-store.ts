import type { Pool } from "pg";
import type { WebhookEventType } from "../../contract/webhook-schemas.js";
import { WEBHOOK_DISABLED_EVENT } from "../../contract/events.js";
import { webhookDisabledData, type FailingEndpoint, type NewWebhookInput, type WebhookChange, type WebhookPage, type WebhookRecord, type WebhookStore } from "../webhook-store.js";
import { storageCall } from "./storage-errors.js";
import { ENDED_BY_DISABLING } from "../delivery-store.js";
import { runTransaction } from "./transaction.js";

/** A `webhooks` row as the driver reads it (the delivery store's claim reads the same columns). */
export interface WebhookRow {
  id: string;
  url: string;
  types: WebhookEventType[];
  description: string | null;
  enabled: boolean;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** Every column of a webhook record. */
export const WEBHOOK_COLUMNS = "id, url, types, description, enabled, secret, previous_secret, previous_secret_until, created_at, updated_at";

/** Webhook endpoints in PostgreSQL (migration 11), shared by every instance on the database. */
export class PostgresWebhookStore implements WebhookStore {
  readonly #pool: Pool;
  readonly #database: string;

  constructor(pool: Pool, database: string) {
    this.#pool = pool;
    this.#database = database;
  }

  async create({ url, types, description, secret, at }: NewWebhookInput): Promise<WebhookRecord> {
    const [row] = await this.#query(
      `INSERT INTO webhooks (url, types, description, secret, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5) RETURNING ${WEBHOOK_COLUMNS}`,
      [url, types, description, secret, at],
    );
    return toWebhookRecord(row!);
  }

  async get(id: number): Promise<WebhookRecord | undefined> {
    const [row] = await this.#query(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = $1`, [id]);
    return row && toWebhookRecord(row);
  }

  async list({ afterId = 0, limit }: { afterId?: number; limit: number }): Promise<WebhookPage> {
    const rows = await this.#query(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id > $1 ORDER BY id LIMIT $2`, [afterId, limit + 1]);
    return { webhooks: rows.slice(0, limit).map(toWebhookRecord), hasMore: rows.length > limit };
  }

  async update(id: number, change: WebhookChange, at: Date): Promise<WebhookRecord | undefined> {
    // A field absent from the change keeps its value; description may be set to null, so it has its own flag.
    // Disabled, its pending deliveries end in the same statement: enabling it again sends nothing old.
    const [row] = await this.#query(
      `WITH changed AS (UPDATE webhooks SET url = coalesce($2, url), types = coalesce($3, types),
         description = CASE WHEN $4 THEN $5 ELSE description END, enabled = coalesce($6, enabled), updated_at = $7
       WHERE id = $1 RETURNING ${WEBHOOK_COLUMNS}),
       ended AS (UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = $8
         WHERE webhook_id = $1 AND status = 'pending' AND $6 IS FALSE)
       SELECT * FROM changed`,
      [id, change.url ?? null, change.types ?? null, change.description !== undefined, change.description ?? null, change.enabled ?? null, at, ENDED_BY_DISABLING],
    );
    return row && toWebhookRecord(row);
  }

  async rotateSecret(id: number, secret: string, previousUntil: Date | null, at: Date): Promise<WebhookRecord | undefined> {
    const [row] = await this.#query(
      `UPDATE webhooks SET previous_secret = CASE WHEN $3::timestamptz IS NULL THEN NULL ELSE secret END,
         previous_secret_until = $3, secret = $2, updated_at = $4 WHERE id = $1 RETURNING ${WEBHOOK_COLUMNS}`,
      [id, secret, previousUntil, at],
    );
    return row && toWebhookRecord(row);
  }

  async delete(id: number): Promise<boolean> {
    const rows = await this.#query("DELETE FROM webhooks WHERE id = $1 RETURNING id", [id]);
    return rows.length > 0;
  }

  async disableFailing(id: number, failing: FailingEndpoint): Promise<WebhookRecord | undefined> {
    // One transaction: the endpoint, its pending deliveries and the event (whose trigger function
    // records its deliveries to the other endpoints) commit together. Of two instances disabling
    // at once, the second finds the row no longer enabled once the first commits.
    return storageCall(this.#database, () =>
      runTransaction(this.#pool, async (client) => {
        const { rows } = await client.query<WebhookRow>(
          `UPDATE webhooks w SET enabled = false, updated_at = $3
            WHERE w.id = $1 AND w.enabled AND w.updated_at <= $2
              AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                               WHERE d.webhook_id = w.id AND d.status = 'succeeded' AND d.last_attempt_at > $2)
            RETURNING ${WEBHOOK_COLUMNS}`,
          [id, failing.since, failing.at],
        );
        if (!rows[0]) return undefined;
        const record = toWebhookRecord(rows[0]);
        await client.query("UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = $2 WHERE webhook_id = $1 AND status = 'pending'", [id, ENDED_BY_DISABLING]);
        await client.query("SELECT petstore_event($1, $2::jsonb)", [WEBHOOK_DISABLED_EVENT, JSON.stringify(webhookDisabledData(record, failing))]);
        return record;
      }),
    );
  }

  #query(sql: string, values: unknown[]): Promise<WebhookRow[]> {
    return storageCall(this.#database, async () => (await this.#pool.query<WebhookRow>(sql, values)).rows);
  }
}

export function toWebhookRecord(row: WebhookRow): WebhookRecord {
  return {
    id: Number(row.id),
    url: row.url,
    types: row.types,
    description: row.description,
    enabled: row.enabled,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretUntil: row.previous_secret_until?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
