// The seed file of `serve --seed`: pets, orders, keys and webhook endpoints a test suite knows in
// advance. Each record is read with the API's own schemas (a pet as NewPet, a key as NewKey, an
// endpoint as NewWebhook), plus what only a seed may say: the ids, an order's status and times, a
// key's fixed secret and admin flag, an endpoint's fixed signing secret and enabled flag.
import * as z from "zod";
import { API_KEY_PATTERN, KEY_ID_PATTERN } from "../../contract/constants.js";
import { NewKeySchema, NewPetSchema, OrderSchema } from "../../contract/schemas.js";
import { NewWebhookSchema, WEBHOOK_SECRET_PATTERN } from "../../contract/webhook-schemas.js";

const id = () => z.int({ error: "must be an integer between 1 and 9007199254740991" }).min(1, { error: "must be at least 1" }).max(Number.MAX_SAFE_INTEGER);

export const SeedPetSchema = NewPetSchema.extend({ id: id().optional() });

export const SeedOrderSchema = z.strictObject({
  id: id().optional(),
  petId: OrderSchema.shape.petId,
  status: OrderSchema.shape.status.optional(),
  createdAt: OrderSchema.shape.createdAt.optional(),
  updatedAt: OrderSchema.shape.updatedAt.optional(),
});

/** The key's own fields; plan, name, limits and expiry are NewKey's, checked with its rules. */
export const SeedKeyIdentitySchema = z.object({
  key: z.string({ error: "is required" }).regex(new RegExp(API_KEY_PATTERN), { error: "must be ps_ and 40 letters or digits" }),
  id: z.string().regex(new RegExp(KEY_ID_PATTERN), { error: "must be key_ and 1 to 40 letters, digits or _" }).optional(),
  admin: z.boolean({ error: "must be true or false" }).optional(),
});

/**
 * An endpoint with the secret its receiver verifies with: required, since a test must hold it
 * before the first delivery and the API shows a secret only in the answer that made it.
 */
export const SeedWebhookSchema = NewWebhookSchema.extend({
  id: id().optional(),
  enabled: z.boolean({ error: "must be true or false" }).optional(),
  // The message never quotes the value: it is a secret.
  secret: z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
    .regex(new RegExp(WEBHOOK_SECRET_PATTERN), { error: "must be whsec_ and the base64 of 32 bytes" }),
});

export const SEED_KEY_FIELDS = ["key", "id", "admin"] as const;

export const SeedDocumentSchema = z.strictObject({
  pets: z.array(z.unknown(), { error: "must be an array" }).optional(),
  orders: z.array(z.unknown(), { error: "must be an array" }).optional(),
  keys: z.array(z.unknown(), { error: "must be an array" }).optional(),
  webhooks: z.array(z.unknown(), { error: "must be an array" }).optional(),
});

export type SeedPet = z.infer<typeof SeedPetSchema>;
export type SeedOrder = z.infer<typeof SeedOrderSchema>;
export type SeedWebhook = z.infer<typeof SeedWebhookSchema>;
export type SeedKey = z.infer<typeof SeedKeyIdentitySchema> & z.infer<typeof NewKeySchema>;

export { NewKeySchema as SeedKeyFieldsSchema };
