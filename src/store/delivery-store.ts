import type { WebhookRecord } from "./webhook-store.js";

/** The error of a pending delivery ended because its endpoint was disabled. */
export const ENDED_BY_DISABLING = "not sent: the endpoint was disabled";

export type DeliveryStatus = "pending" | "succeeded" | "failed";

/**
 * One event to one endpoint: recorded in the same durable step as the change that caused it,
 * then attempted until a 2xx or until it has been retried for long enough.
 */
export interface DeliveryRecord {
  id: number;
  webhookId: number;
  /** The event's id (GET /v1/events), or null for webhook.test, which no change caused. */
  eventId: number | null;
  type: string;
  /** The exact body sent: the signature covers these characters. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  createdAt: string;
  /** When it is due next; null once it succeeded or failed. */
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  /** The first 1 KiB of the receiver's last answer. */
  lastResponse: string | null;
  /** Milliseconds the last attempt took. */
  lastDurationMs: number | null;
}

/** A delivery claimed for sending, with the endpoint it goes to as it is now. */
export interface ClaimedDelivery {
  delivery: DeliveryRecord;
  webhook: WebhookRecord;
}

/** What one attempt found; the store keeps it and says when the next one is due. */
export interface AttemptOutcome {
  at: Date;
  /** A 2xx. */
  succeeded: boolean;
  statusCode: number | null;
  error: string | null;
  response: string | null;
  durationMs: number;
  /** The next attempt's time, or null when this failure is the last (retried for long enough). */
  nextAttemptAt: Date | null;
}

export interface ClaimQuery {
  now: Date;
  limit: number;
  /** Endpoints whose backlog in memory is full: none of theirs is claimed now. */
  skipWebhooks: readonly number[];
  /** How long a claim holds before another instance may take the delivery over (a crash mid-send). */
  leaseMs: number;
}

export interface DeliveryQuery {
  webhookId: number;
  status?: DeliveryStatus;
  /** Newest first: only deliveries with an id below this (the decoded cursor). */
  beforeId?: number;
  limit: number;
}

/**
 * The deliveries of every endpoint. Creating them is not here: each engine records them with the
 * change that causes them (one journal line, one PostgreSQL transaction).
 */
export interface DeliveryStore {
  /**
   * Due pending deliveries (nextAttemptAt <= now), oldest due first, each leased to the caller so
   * that no other claim (another instance's included) takes it until it is recorded or the lease ends.
   */
  claim(query: ClaimQuery): Promise<ClaimedDelivery[]>;
  /** Records an attempt and ends the lease. Undefined when the delivery is gone (its endpoint removed). */
  record(id: number, outcome: AttemptOutcome): Promise<DeliveryRecord | undefined>;
  get(webhookId: number, id: number): Promise<DeliveryRecord | undefined>;
  list(query: DeliveryQuery): Promise<{ deliveries: DeliveryRecord[]; hasMore: boolean }>;
  /** Makes a delivery pending and due now, whatever its status (POST .../retry). */
  retryNow(webhookId: number, id: number, now: Date): Promise<DeliveryRecord | undefined>;
  /** Records a webhook.test delivery to this endpoint only, due now. */
  createTest(webhookId: number, payload: string, now: Date): Promise<DeliveryRecord | undefined>;
  /** Deliveries pending now, for /metrics. */
  pendingCount(): Promise<number>;
}
