// The plain values of the Webhooks tag (event types, delivery statuses, URL rules, limits), free of
// zod so the client checks `webhooks add` and `--types` with the server's own rules at no start-up cost.
import { EVENT_TYPES } from "./events.js";

/** What an endpoint can ask for: every event of GET /v1/events (webhook.disabled among them). */
export const WEBHOOK_EVENT_TYPES = EVENT_TYPES;
/** Sent only by POST /webhooks/{id}/test, to that endpoint, whatever its types. */
export const WEBHOOK_TEST_EVENT = "webhook.test";
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(name: string): name is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(name);
}

export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 500;
/** `whsec_` and the base64 of 32 bytes. */
export const WEBHOOK_SECRET_PATTERN = "^whsec_[A-Za-z0-9+/]{43}=$";

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const MAX_SECRET_GRACE_SECONDS = 7 * 24 * 3600;
export const DEFAULT_SECRET_GRACE_SECONDS = 24 * 3600;

/** Why `text` cannot be an endpoint URL, or undefined when it can (the address check comes later). */
export function webhookUrlProblem(text: string): string | undefined {
  if (text.length > WEBHOOK_URL_MAX_LENGTH) return `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters, got ${text.length}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "must be an absolute http or https URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `must be an http or https URL, not ${url.protocol.slice(0, 20)}`;
  // Credentials in a URL end up in logs and in the listing: a receiver authenticates us by the signature.
  if (url.username !== "" || url.password !== "") return "must not carry a user name or password (the signature authenticates us)";
  if (url.hash !== "") return "must not have a #fragment (it is never sent)";
  return undefined;
}
