// Each attempt this instance makes, as /metrics counts it: its outcome and how long it took.
import type { DeliveryRecord } from "../../store/delivery-store.js";
import type { MetricsObserver, WebhookAttemptOutcome } from "../metrics/observer.js";
import { isSuccess, type DeliveryObserver } from "./delivery-worker.js";
import type { SendResult } from "./send-webhook.js";

/** The observer that reports every attempt to the metrics. */
export function deliveryMetrics(metrics: Pick<MetricsObserver, "webhookAttempt">): DeliveryObserver {
  return {
    attempted: (_claimed, result, after) => metrics.webhookAttempt(attemptOutcome(result, after), result.durationMs / 1000),
  };
}

/**
 * succeeded: a 2xx. failed: the delivery ended with it (its window ran out, or its endpoint was
 * disabled meanwhile). retried: anything else, the store unable to record it included, since the
 * delivery is then claimed and sent again once its lease ends.
 */
export function attemptOutcome(result: SendResult, after: DeliveryRecord | undefined): WebhookAttemptOutcome {
  if (isSuccess(result)) return "succeeded";
  return after?.status === "failed" ? "failed" : "retried";
}
