// The Prometheus side of the metrics: prom-client's registry, its instruments, and the gauges
// read on scrape. Imported by serve only when metrics are on.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { MetricsObserver, StoreWrite, WebhookAttemptOutcome } from "./observer.js";
import { RequestTally } from "./request-tally.js";

export interface PrometheusOptions {
  /** Pets per status, read on each scrape: from the indexes (lowdb) or one count query (PostgreSQL). */
  petsByStatus?: () => Promise<Record<string, number>>;
  /** Event streams open now (GET /v1/events), read on each scrape. */
  openEventStreams?: () => number;
  /** Webhook deliveries pending in the store (every instance's), read on each scrape. */
  pendingDeliveries?: () => Promise<number>;
  /** process_* and nodejs_* metrics; off in tests that compare whole outputs. */
  processMetrics?: boolean;
}

export interface PrometheusMetrics extends MetricsObserver {
  /** The exposition text, and its content type. */
  scrape(): Promise<{ body: string; contentType: string }>;
}

// Seconds; the API answers in well under a millisecond to tens of milliseconds (a group commit).
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const BATCH_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];
// Seconds; a receiver answers in milliseconds to seconds, and an attempt is given up at 10 s by
// default, so le="10" parts the answers from the timeouts.
const WEBHOOK_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const WEBHOOK_OUTCOMES: readonly WebhookAttemptOutcome[] = ["succeeded", "retried", "failed"];

/** A registry of its own (not prom-client's global one), so two servers in one process do not mix. */
export function createPrometheusMetrics(options: PrometheusOptions = {}): PrometheusMetrics {
  const registers = [new Registry()];
  const [registry] = registers as [Registry];
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry });
  const tally = new RequestTally(DURATION_BUCKETS);
  const requestMetrics = tally.metrics(
    { name: "petstore_http_requests_total", help: "Requests answered, by route template, method and status." },
    { name: "petstore_http_request_duration_seconds", help: "Time from routing to the handler's result, by route template." },
  );
  for (const metric of requestMetrics) registry.registerMetric(metric);
  const refusals = new Counter({ name: "petstore_rate_limit_refusals_total", help: "Requests refused with 429, by reason (rate_limited, key_banned).", labelNames: ["reason"], registers });
  const writeSeconds = new Histogram({ name: "petstore_store_write_duration_seconds", help: "Time of one durable write (journal append and fsync, snapshot rewrite, or INSERT), by engine.", labelNames: ["engine"], buckets: DURATION_BUCKETS, registers });
  const batchSize = new Histogram({ name: "petstore_store_write_batch_size", help: "Changes made durable by one write (group commit batch), by engine.", labelNames: ["engine"], buckets: BATCH_BUCKETS, registers });
  const journalBytes = new Counter({ name: "petstore_journal_bytes_total", help: "Bytes appended to the lowdb journal.", registers });
  if (options.petsByStatus) petsGauge(registers, options.petsByStatus);
  const webhooks = webhookMetrics(registers, options.pendingDeliveries);
  const openStreams = options.openEventStreams;
  if (openStreams) {
    new Gauge({
      name: "petstore_event_streams_open",
      help: "Event streams (GET /v1/events) open on this instance; read when scraped.",
      registers,
      collect() {
        this.set(openStreams());
      },
    });
  }
  return {
    request: (route, method, status, seconds) => tally.record(route, method, status, seconds),
    refused: (reason) => refusals.labels(reason).inc(),
    storeWrite(write: StoreWrite) {
      writeSeconds.labels(write.engine).observe(write.ms / 1000);
      batchSize.labels(write.engine).observe(write.changes);
      if (write.journalBytes !== undefined) journalBytes.inc(write.journalBytes);
    },
    webhookAttempt: webhooks.attempt,
    scrape: async () => ({ body: await registry.metrics(), contentType: registry.contentType }),
  };
}

function petsGauge(registers: Registry[], read: () => Promise<Record<string, number>>): void {
  new Gauge({
    name: "petstore_pets",
    help: "Pets in the store, by status; read when scraped.",
    labelNames: ["status"],
    registers,
    async collect() {
      const counts = await read();
      this.reset();
      for (const [status, count] of Object.entries(counts)) this.labels(status).set(count);
    },
  });
}

/** The delivery counters and latency of this instance's attempts, and the store's pending count. */
function webhookMetrics(registers: Registry[], pending: (() => Promise<number>) | undefined): { attempt: MetricsObserver["webhookAttempt"] } {
  const attempts = new Counter({
    name: "petstore_webhook_delivery_attempts_total",
    help: "Webhook delivery attempts made by this instance, by outcome: succeeded (a 2xx), retried (failed, tried again later), failed (the last attempt failed).",
    labelNames: ["outcome"],
    registers,
  });
  // Every outcome from the start, at 0: a rate over a series that appears only with the first failure misses it.
  for (const outcome of WEBHOOK_OUTCOMES) attempts.labels(outcome).inc(0);
  const seconds = new Histogram({ name: "petstore_webhook_delivery_duration_seconds", help: "Time of one webhook delivery attempt by this instance, from the request to the answer's first 1 KiB (or the failure).", buckets: WEBHOOK_BUCKETS, registers });
  if (pending) {
    new Gauge({
      name: "petstore_webhook_deliveries_pending",
      help: "Webhook deliveries waiting to be sent or retried, in the store (all instances'); read when scraped.",
      registers,
      async collect() {
        this.set(await pending());
      },
    });
  }
  return {
    attempt(outcome, taken) {
      attempts.labels(outcome).inc();
      seconds.observe(taken);
    },
  };
}
