// A receiver that starts failing is logged once, and its recovery once, as a storage outage is:
// not one line per attempt. Lines name the endpoint's id and origin, never its path (which may
// hold a token) nor its secret.
import type { ClaimedDelivery, DeliveryRecord } from "../../store/delivery-store.js";
import { isSuccess, type DeliveryObserver } from "./delivery-worker.js";
import type { SendResult } from "./send-webhook.js";

export interface HealthLog {
  warn(message: string): void;
  info(message: string): void;
}

/** The observer that logs each endpoint's failing and recovering, once each. */
export function receiverHealth(log: HealthLog, now: () => number): DeliveryObserver {
  const failingSince = new Map<number, number>();
  return {
    attempted({ webhook }: ClaimedDelivery, result: SendResult, _after: DeliveryRecord | undefined) {
      const ok = isSuccess(result);
      const since = failingSince.get(webhook.id);
      // Named only when a line is written: parsing the URL of every attempt costs at thousands a second.
      const name = () => `webhook endpoint ${webhook.id} (${originOf(webhook.url)})`;
      if (!ok && since === undefined) {
        failingSince.set(webhook.id, now());
        log.warn(`${name()} is failing: ${result.error ?? `answered ${result.statusCode}`}; retrying with backoff`);
      } else if (ok && since !== undefined) {
        failingSince.delete(webhook.id);
        log.info(`${name()} recovered after ${Math.round((now() - since) / 1000)} s of failures`);
      }
    },
  };
}

/** The origin of an endpoint URL, for log lines: never its path, which may hold a token. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "an unparsable URL";
  }
}
