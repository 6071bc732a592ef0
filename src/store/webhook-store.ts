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
}
