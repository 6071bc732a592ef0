// The records client and server share, defined once. The server validates request bodies
// with these; the OpenAPI document is generated from them, and each registered in COMPONENTS is
// one of its components.schemas, under that id.
// The record types (Pet, NewPet, KeyView, ...) are inferred from them at the end of this file.
import * as z from "zod";
import {
  API_KEY_LENGTH,
  API_KEY_PATTERN,
  characterCount,
  INSTANT_INPUT_MAX_LENGTH,
  INSTANT_MAX_LENGTH,
  KEY_ID_MAX_LENGTH,
  KEY_ID_PATTERN,
  KEY_NAME_MAX_LENGTH,
  KEY_PREFIX_LENGTH,
  LIST_LIMIT_MAX,
  ORDER_STATUSES,
  PET_NAME_MAX_LENGTH,
  PET_STATUSES,
  PLANS,
} from "./constants.js";
import { COMPONENTS } from "./components.js";
import { ERROR_CODES, ERROR_MESSAGE_MAX_LENGTH, type ServerErrorBody } from "./errors.js";
import { SCOPE_MEANINGS, SCOPES } from "./scopes.js";

const required = (rule: string) => (issue: { input: unknown }) =>
  issue.input === undefined ? "is required" : rule;

/**
 * A non-empty string of at most `max` characters, counted as JSON Schema's maxLength counts
 * them (code points, so an emoji is one character), not as UTF-16 units as zod's max does.
 */
const text = (max: number) =>
  z
    .string({ error: required("must be a string") })
    .min(1, { error: "must not be empty" })
    // value.length counts UTF-16 units, never fewer than code points: most texts stop there.
    .refine((value) => value.length <= max || characterCount(value) <= max, {
      error: `must be at most ${max} characters`,
    })
    .meta({ maxLength: max });

/**
 * An instant as the server writes it (toISOString: 24 characters). The bound is documentation
 * (maxLength): these are answers, and the db file's own instants are read with the same schema.
 */
const instant = () => z.iso.datetime().meta({ maxLength: INSTANT_MAX_LENGTH });

/** A string the server writes, documented with its longest form; it validates nothing more. */
const written = (maxLength: number, extra: Record<string, unknown> = {}) => z.string().meta({ maxLength, ...extra });

/** A count of pets or requests: never negative, at most a safe integer. */
const countOf = () => z.int().min(0).meta({ format: "int64" });

const positiveSafeInteger = (what: string) =>
  z
    .int({ error: required(`must be an integer between 1 and ${Number.MAX_SAFE_INTEGER}`) })
    .min(1, { error: `must be at least 1` })
    .meta({ description: what, format: "int64" });

export const PetStatusSchema = z
  .enum(PET_STATUSES, { error: required(`must be one of ${PET_STATUSES.join(", ")}`) })
  .describe("Availability status.")
  .register(COMPONENTS, { id: "PetStatus" });

export const NewPetSchema = z
  .strictObject({
    name: text(PET_NAME_MAX_LENGTH).describe("The animal's name."),
    categoryId: positiveSafeInteger("Identifier of the category the animal belongs to."),
    status: PetStatusSchema.optional(),
  })
  .describe("Request body for creating an animal. The service assigns the id.")
  .register(COMPONENTS, { id: "NewPet" });

export const PetPatchSchema = z
  .strictObject({
    name: text(PET_NAME_MAX_LENGTH).describe("The animal's new name.").optional(),
    categoryId: positiveSafeInteger("The new category.").optional(),
    status: PetStatusSchema.optional(),
  })
  .describe(
    "A JSON Merge Patch (RFC 7396) of a pet: the fields to change, at least one. null is refused, since every field of a pet is required; id cannot change.",
  )
  .register(COMPONENTS, { id: "PetPatch" });

export const PetSchema = z
  .object({
    id: positiveSafeInteger("Unique identifier, assigned by the service on creation."),
    name: text(PET_NAME_MAX_LENGTH).describe("The animal's name."),
    categoryId: positiveSafeInteger("Identifier of the category the animal belongs to."),
    status: PetStatusSchema,
  })
  .describe("An animal, as returned.")
  .register(COMPONENTS, { id: "Pet" });

export const PetsSchema = z.array(PetSchema).meta({ maxItems: LIST_LIMIT_MAX }).describe("A page of animals, ordered by id.").register(COMPONENTS, { id: "Pets" });

export const OrderStatusSchema = z
  .enum(ORDER_STATUSES, { error: required(`must be one of ${ORDER_STATUSES.join(", ")}`) })
  .describe("placed -> approved -> delivered; placed or approved -> cancelled. delivered and cancelled are final.")
  .register(COMPONENTS, { id: "OrderStatus" });

export const NewOrderSchema = z
  .strictObject({ petId: positiveSafeInteger("The pet to buy; it must be available.") })
  .describe("Request body for placing an order. The service assigns the id and the status (placed).")
  .register(COMPONENTS, { id: "NewOrder" });

export const OrderPatchSchema = z
  .strictObject({ status: OrderStatusSchema })
  .describe("The status to move the order to; only the transitions of OrderStatus are accepted.")
  .register(COMPONENTS, { id: "OrderPatch" });

export const OrderSchema = z
  .object({
    id: positiveSafeInteger("Unique identifier, assigned by the service; never reused."),
    petId: positiveSafeInteger("The pet this order is for."),
    status: OrderStatusSchema,
    createdAt: instant().describe("When the order was placed (UTC)."),
    updatedAt: instant().describe("When its status last changed (UTC)."),
  })
  .describe("An order for one pet, as returned.")
  .register(COMPONENTS, { id: "Order" });

export const OrdersSchema = z.array(OrderSchema).meta({ maxItems: LIST_LIMIT_MAX }).describe("A page of orders, ordered by id.").register(COMPONENTS, { id: "Orders" });

const count = (status: string) => countOf().describe(`Pets that are ${status}.`);
export const InventorySchema = z
  .strictObject({ available: count("available"), pending: count("pending"), sold: count("sold") })
  .describe("How many pets have each status, at one instant.")
  .register(COMPONENTS, { id: "Inventory" });

export const ErrorSchema = z
  .object({
    code: z.enum(ERROR_CODES).describe("Machine-readable error code."),
    message: written(ERROR_MESSAGE_MAX_LENGTH).describe("Human-readable description."),
    status: z.int().min(400).max(599).meta({ format: "int32" }).describe("The HTTP status code, repeated."),
  })
  .describe("Every error response has this body.")
  .register(COMPONENTS, { id: "Error" });

export const PlanSchema = z.enum(PLANS, { error: required(`must be one of ${PLANS.join(", ")}`) }).register(COMPONENTS, { id: "Plan" });

export const KeyLimitsSchema = z.object({
  perMinute: z.int().min(1).meta({ format: "int64" }),
  perDay: z.int().min(1).meta({ format: "int64" }),
}).register(COMPONENTS, { id: "KeyLimits" });

export const ScopeSchema = z
  .enum(SCOPES, { error: required(`must be one of ${SCOPES.join(", ")}`) })
  .describe(`What a key may do: ${SCOPES.map((scope) => `\`${scope}\` ${SCOPE_MEANINGS[scope]}`).join("; ")}.`);

/** A key's scopes as answers state them: each once, in the order of ScopeSchema. */
const heldScopes = () => z.array(ScopeSchema).meta({ maxItems: SCOPES.length, uniqueItems: true });

export const NewKeySchema = z
  .strictObject({
    plan: PlanSchema,
    name: text(KEY_NAME_MAX_LENGTH).optional(),
    perMinute: positiveSafeInteger("Requests per minute; enterprise keys only.").optional(),
    perDay: positiveSafeInteger("Requests per UTC day; enterprise keys only.").optional(),
    expiresAt: z.iso
      .datetime({ offset: true })
      .max(INSTANT_INPUT_MAX_LENGTH, { error: `must be at most ${INSTANT_INPUT_MAX_LENGTH} characters` })
      .optional()
      .describe("When the key stops working (in the future); absent: never."),
    scopes: z
      .array(ScopeSchema, { error: "must be an array of scopes" })
      .min(1, { error: "must name at least one scope" })
      .refine((scopes) => new Set(scopes).size === scopes.length, { error: "must not name a scope twice" })
      .meta({ maxItems: SCOPES.length, uniqueItems: true })
      .optional()
      .describe("What the key may do; absent: every scope (all a key without scopes could ever do). Keys never get the admin operations."),
  })
  .superRefine((key, ctx) => {
    for (const field of ["perMinute", "perDay"] as const) {
      if (key.plan === "enterprise" && key[field] === undefined) {
        ctx.addIssue({ code: "custom", path: [field], message: "is required for the enterprise plan" });
      }
      if (key.plan !== "enterprise" && key[field] !== undefined) {
        ctx.addIssue({ code: "custom", path: [field], message: `is only accepted for the enterprise plan, not ${key.plan}` });
      }
    }
  })
  .describe("Request body for creating a key. perMinute and perDay are required for enterprise and refused for the other plans.")
  .register(COMPONENTS, { id: "NewKey" });

/** A key's id: `key_` and 16 base62 characters (`key_environment_admin` for PETSTORE_ADMIN_KEY). */
const keyId = () => written(KEY_ID_MAX_LENGTH, { pattern: KEY_ID_PATTERN });
/** The first characters of the secret, for telling keys apart: never enough to use it. */
const keyPrefix = () => written(KEY_PREFIX_LENGTH).describe("`ps_` and the secret's first six characters.");

export const KeyViewSchema = z
  .object({
    id: keyId(),
    prefix: keyPrefix(),
    plan: PlanSchema,
    name: written(KEY_NAME_MAX_LENGTH).nullable(),
    admin: z.boolean(),
    scopes: heldScopes().describe("What the key may do; an admin key holds every scope."),
    limits: KeyLimitsSchema,
    createdAt: instant(),
    revokedAt: instant().nullable(),
    lastUsedAt: instant().nullable(),
    expiresAt: instant().nullable().optional().describe("When the key stops working; null: never."),
    rotatedAt: instant().nullable().optional().describe("When its secret was last replaced (rotateKey)."),
  })
  .describe("A key as the admin API lists it: never the secret, never its hash.")
  .register(COMPONENTS, { id: "KeyView" });

export const CreatedKeySchema = z
  .object({
    id: keyId(),
    key: written(API_KEY_LENGTH, { pattern: API_KEY_PATTERN }).describe("The secret, shown only in this response."),
    prefix: keyPrefix(),
    plan: PlanSchema,
    name: written(KEY_NAME_MAX_LENGTH).nullable(),
    scopes: heldScopes().describe("What the key may do."),
    limits: KeyLimitsSchema,
    createdAt: instant(),
    expiresAt: instant().nullable().optional().describe("When the key stops working; null: never."),
    previousSecretValidUntil: instant().optional().describe("After a rotation: when the replaced secret stops working."),
  })
  .describe("The answer to POST /keys: the only time the secret is shown.")
  .register(COMPONENTS, { id: "CreatedKey" });

/** Longest grace period of a rotation: a week, so a forgotten old secret does not linger. */
export const MAX_ROTATION_GRACE_SECONDS = 7 * 24 * 3600;

export const RotateKeySchema = z
  .strictObject({
    graceSeconds: z
      .int()
      .min(0)
      .max(MAX_ROTATION_GRACE_SECONDS)
      .meta({ format: "int32" })
      .optional()
      .describe("How long the replaced secret keeps working, in seconds; 0 ends it at once. Default 3600."),
  })
  .describe("Request body for rotating a key.")
  .register(COMPONENTS, { id: "RotateKey" });

/** An animal, as returned. */
export type Pet = z.infer<typeof PetSchema>;
/** The body of updatePet: the fields to change. */
export type PetPatchBody = z.infer<typeof PetPatchSchema>;
/** The body of createPet, as a client sends it (status may be left out). */
export type NewPet = z.input<typeof NewPetSchema>;
/**
 * The Error body as a client reads it: `code` widened to string, since a newer server may send a
 * code this client does not know yet (the server only ever writes ErrorCode, see errors.ts).
 */
export type ErrorBody = Omit<z.infer<typeof ErrorSchema>, "code"> & { code: string };
// What errors.ts writes is exactly what ErrorSchema describes.
const _serverBodyMatches: [ServerErrorBody] extends [z.infer<typeof ErrorSchema>] ? true : false = true;
void _serverBodyMatches;
export type KeyLimits = z.infer<typeof KeyLimitsSchema>;
/** A key as the admin API lists it: never the secret, never its hash. */
export type KeyView = z.infer<typeof KeyViewSchema>;
/** The answer to POST /v1/keys: the only time the secret is shown. */
export type CreatedKey = z.infer<typeof CreatedKeySchema>;
/** The body of createKey, as a client sends it. */
export type NewKey = z.input<typeof NewKeySchema>;
/** An order for one pet, as returned. */
export type Order = z.infer<typeof OrderSchema>;
/** The pets per status, as GET /store/inventory answers. */
export type Inventory = z.infer<typeof InventorySchema>;
