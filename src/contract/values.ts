// The contract as the client sees it, without zod: the constants, the error codes, and the
// record types, which are inferred from the schemas and imported as types only (erased at build),
// so `import { PET_STATUSES, type Pet } from ".../values.js"` costs no schema library at start-up.
export * from "./constants.js";
export { ERROR_CODES, type ErrorCode } from "./errors.js";
export { MAX_BODY_BYTES } from "./limits.js";
export type { CreatedKey, ErrorBody, KeyLimits, KeyView, NewKey, NewPet, Pet } from "./schemas.js";
export type { Inventory, Order } from "./schemas.js";
export * from "./webhook-values.js";
export type { CreatedWebhook, NewWebhook, Webhook, WebhookDelivery, WebhookPatch } from "./webhook-schemas.js";
