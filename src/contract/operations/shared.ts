// Parameters and errors more than one tag's operations declare, described once.
import { entityTags, idempotencyKey } from "../parameters.js";
import { hours, IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_TTL_MS } from "../limits.js";

export const IF_NONE_MATCH = entityTags().describe(
  "ETags of representations you hold: 304 Not Modified, without a body, when one is current.",
);

export const IDEMPOTENCY_KEY = idempotencyKey().describe(
  `Any unique value (a UUID), 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters, kept for ${hours(IDEMPOTENCY_TTL_MS)} per API key ` +
    "(draft-ietf-httpapi-idempotency-key-header). Sent again with the same body, the first answer comes back " +
    "(`Idempotent-Replayed: true`) and nothing is created; with another body: 422 idempotency_key_reused; " +
    "while the first is still being answered: 409 idempotency_key_in_progress.",
);

/** The errors an operation with an Idempotency-Key adds to its own. */
export const IDEMPOTENCY_ERRORS = ["IdempotencyKeyInProgress", "IdempotencyKeyReused"] as const;

/** What updatePet and updateOrder accept: RFC 7396's own media type, and plain JSON for clients that only know that. */
export const MERGE_PATCH_MEDIA_TYPES = ["application/merge-patch+json", "application/json"] as const;
