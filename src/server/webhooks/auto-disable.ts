// An endpoint whose every delivery failed for the whole retry window is disabled, as Stripe and
// GitHub do: sending on to a receiver that has been gone for days only fills the store. The
// store decides (and emits webhook.disabled) atomically; this says when to ask it.
import type { ClaimedDelivery, DeliveryRecord } from "../../store/delivery-store.js";
import type { WebhookStore } from "../../store/webhook-store.js";
import { originOf } from "./receiver-health.js";

export interface AutoDisableDeps {
  webhooks: Pick<WebhookStore, "disableFailing">;
  /** serve --webhook-retry-for: the window a failing endpoint must have failed through. */
  retryForMs: number;
  now: () => number;
  log: { warn(message: string): void };
}

/**
 * What the worker calls when a delivery has ended failed: the endpoint is disabled when nothing
 * sent to it succeeded during the window that delivery was retried for (and it did not change then).
 */
export function autoDisable(deps: AutoDisableDeps): (claimed: ClaimedDelivery, after: DeliveryRecord) => Promise<void> {
  return async ({ webhook }, after) => {
    const now = deps.now();
    const failing = { since: new Date(now - deps.retryForMs), at: new Date(now), deliveryId: after.id, lastError: after.lastError };
    const disabled = await deps.webhooks.disableFailing(webhook.id, failing);
    if (!disabled) return;
    deps.log.warn(
      `webhook endpoint ${webhook.id} (${originOf(webhook.url)}) disabled: no delivery to it succeeded for ${windowText(deps.retryForMs)}; ` +
        "PATCH enabled: true turns it on again",
    );
  };
}

function windowText(ms: number): string {
  return ms >= 3_600_000 ? `${Number((ms / 3_600_000).toFixed(1))} h` : `${Number((ms / 60_000).toFixed(1))} min`;
}
