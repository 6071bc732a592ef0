// Plain values of the contract. Kept free of the schema library so the CLI can import
// them at start-up without paying for zod.

export const PET_STATUSES = ["available", "pending", "sold"] as const;
export type PetStatus = (typeof PET_STATUSES)[number];
export const DEFAULT_PET_STATUS: PetStatus = "available";

/** An order's life: placed -> approved -> delivered, or placed | approved -> cancelled. */
export const ORDER_STATUSES = ["placed", "approved", "delivered", "cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** The statuses in which an order holds its pet: at most one such order per pet. */
export const OPEN_ORDER_STATUSES: readonly OrderStatus[] = ["placed", "approved"];

export const PLANS = ["free", "pro", "business", "enterprise"] as const;
export type Plan = (typeof PLANS)[number];

export const PET_NAME_MAX_LENGTH = 200;
export const KEY_NAME_MAX_LENGTH = 100;
/** A key's id: `key_` and 16 base62 characters, or `key_environment_admin`. */
export const KEY_ID_PATTERN = "^key_[A-Za-z0-9_]{1,40}$";
export const KEY_ID_MAX_LENGTH = 44;
/** An API key: `ps_` and 40 base62 characters; listings show `ps_` and the first six. */
export const API_KEY_LENGTH = 43;
export const API_KEY_PATTERN = "^ps_[0-9A-Za-z]{40}$";
export const KEY_PREFIX_LENGTH = 9;
/** An instant as the server writes it: toISOString, 24 characters. */
export const INSTANT_MAX_LENGTH = 24;
/** An instant a client sends (expiresAt): ISO 8601 with an offset and up to 9 fractional digits fits. */
export const INSTANT_INPUT_MAX_LENGTH = 40;
export const LIST_LIMIT_MIN = 1;
export const LIST_LIMIT_MAX = 100;
export const LIST_LIMIT_DEFAULT = 20;

/** The path segment that carries the interface version, for production and staging alike. */
export const API_PREFIX = "/v1";
export const HEALTH_PATH = "/healthz";
/** Readiness: 200 only while the store (and Redis) answer within a second. */
export const READY_PATH = "/readyz";
/** Prometheus metrics on the main port, only with --metrics-token. */
export const METRICS_PATH = "/metrics";
/** Where `petstore serve` listens by default, and so where the client looks by default. */
export const LOCAL_BASE_URL = `http://127.0.0.1:3000${API_PREFIX}`;

/** getPet is deprecated (RFC 9745) since this instant and sunset (RFC 8594) at the next one. */
export const GET_PET_DEPRECATED_AT = Date.UTC(2026, 0, 1) / 1000;
export const GET_PET_SUNSET_HTTP_DATE = "Thu, 05 Dec 2030 00:00:00 GMT";

/**
 * A text's length as JSON Schema's maxLength (and so the server) counts it: in code points, so an
 * emoji is one character, not two UTF-16 units.
 */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

export function isPetStatus(value: string): value is PetStatus {
  return (PET_STATUSES as readonly string[]).includes(value);
}

export function isOrderStatus(value: string): value is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(value);
}
