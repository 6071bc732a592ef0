// What the request path and the engines report to /metrics. An interface without prom-client,
// so the app and the store wiring type-check against it and never load the library themselves.

/** One durable write: a journal line or snapshot (lowdb), or one INSERT of a batch (PostgreSQL). */
export interface StoreWrite {
  engine: "lowdb" | "postgres";
  /** Changes made durable together (a group commit's batch). */
  changes: number;
  /** Bytes appended to the journal; absent for other writes. */
  journalBytes?: number;
  ms: number;
}

/** How a webhook delivery attempt ended: a 2xx, a failure to be tried again, or its last failure. */
export type WebhookAttemptOutcome = "succeeded" | "retried" | "failed";

export interface MetricsObserver {
  /** A request answered: its route template (`/v1/pets/:petId`, or `unmatched`), method and status. */
  request(route: string, method: string, status: number, seconds: number): void;
  /** A 429: `rate_limited` or `key_banned`. */
  refused(reason: string): void;
  storeWrite(write: StoreWrite): void;
  /** A webhook delivery attempt made by this instance, and how long it took. */
  webhookAttempt(outcome: WebhookAttemptOutcome, seconds: number): void;
}
