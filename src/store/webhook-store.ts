import type { WebhookEventType } from "../contract/webhook-schemas.js";

/** A webhook endpoint as stored: its signing secret is kept (it signs every delivery), never shown again. */
export interface WebhookRecord {
  id: number;
  url: string;
  /** Empty: every type. */
  types: WebhookEventType[];
  description: string | null;
  enabled: boolean;
  /** `whsec_...`: HMAC keys must be kept as they are, unlike API keys, whose hash is enough. */
  secret: string;
  /** After a rotation, the replaced secret, which signs beside the new one until previousSecretUntil. */
  previousSecret: string | null;
  previousSecretUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface NewWebhookInput {
  url: string;
  types: WebhookEventType[];
  description: string | null;
  secret: string;
  /** createdAt and updatedAt: the caller's clock. */
  at: Date;
}

/** What PATCH may change; absent fields stay as they are. */
export interface WebhookChange {
  url?: string;
  types?: WebhookEventType[];
  description?: string | null;
  enabled?: boolean;
}

/** What decides whether a failing endpoint is disabled, and what its webhook.disabled event says. */
export interface FailingEndpoint {
  /** The start of the retry window that just ran out: a success or a change after it spares the endpoint. */
  since: Date;
  at: Date;
  /** The delivery that ended failed, and why: named in the event. */
  deliveryId: number;
  lastError: string | null;
}

/**
 * The data of a webhook.disabled event: the endpoint's id, description and origin, never its URL's
 * path or query (which may hold a token) nor its secret, since the event goes to other endpoints.
 */
export function webhookDisabledData(webhook: WebhookRecord, failing: FailingEndpoint): Record<string, unknown> {
  let origin: string | null = null;
  try {
    origin = new URL(webhook.url).origin;
  } catch {
    // Stored URLs were checked when set; an unreadable one is named by id alone.
  }
  return { id: webhook.id, origin, description: webhook.description, deliveryId: failing.deliveryId, lastError: failing.lastError };
}

export interface WebhookPage {
  webhooks: WebhookRecord[];
  hasMore: boolean;
}

/**
 * Where webhook endpoints live, beside the pets of the same engine (one journal, one database),
 * so the deliveries a change causes can be recorded in the change's own durable step. Ids are
 * never reused.
 */
export interface WebhookStore {
  create(input: NewWebhookInput): Promise<WebhookRecord>;
  get(id: number): Promise<WebhookRecord | undefined>;
  /** Ordered by id, after `afterId` (the decoded cursor). */
  list(query: { afterId?: number; limit: number }): Promise<WebhookPage>;
  /** Undefined when no endpoint has this id. */
  update(id: number, change: WebhookChange, at: Date): Promise<WebhookRecord | undefined>;
  /** A new secret; the old one keeps signing until `previousUntil` (null: not at all). Undefined when unknown. */
  rotateSecret(id: number, secret: string, previousUntil: Date | null, at: Date): Promise<WebhookRecord | undefined>;
  /** False when no endpoint has this id. */
  delete(id: number): Promise<boolean>;
  /**
   * Disables an endpoint whose every delivery failed since `failing.since`: only when it is enabled,
   * unchanged since then (not created, patched or rotated after it) and none of its deliveries
   * succeeded after it. Its pending deliveries end as PATCH enabled:false ends them, and a
   * webhook.disabled event (webhookDisabledData) is recorded in the same durable step, so the
   * endpoints that ask for it are told. Undefined when the endpoint was left alone (or is gone).
   */
  disableFailing(id: number, failing: FailingEndpoint): Promise<WebhookRecord | undefined>;
}
