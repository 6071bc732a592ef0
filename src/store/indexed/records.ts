import { wasChecked } from "../../contract/checked-input.js";
import * as z from "zod";
import { KeyLimitsSchema, PetSchema, PlanSchema } from "../../contract/schemas.js";
import { fieldAndRule, summarizeIssue } from "../../contract/validation.js";
import type { NewPet, Pet } from "../../contract/values.js";
import { canonicalScopes, SCOPES, UNSCOPED_KEY_SCOPES, type Scope } from "../../contract/scopes.js";
import type { KeyRecord, Rotation } from "../key-store.js";
import type { PetPatch, StoredPet } from "../pet-store.js";

/** A pet in the db file and the journal: `revision` only once past 1 (older files have none). */
export const PetRecordSchema = PetSchema.extend({ revision: z.int().min(2).optional() });
export type PetRecord = z.infer<typeof PetRecordSchema>;

/** The pet and revision of a file record, the pet frozen and without the revision field. */
export function toStoredPet(record: PetRecord): StoredPet {
  // Nearly every record has no revision: it is then the pet itself, not copied (100k copies of
  // garbage at the load of 100k pets made V8 size its heap for them).
  if (!("revision" in record)) return { pet: Object.freeze(record), revision: 1 };
  const { revision = 1, ...pet } = record;
  return { pet: Object.freeze(pet), revision };
}

export const KeyRecordSchema = z.object({
  id: z.string().min(1),
  hash: z.string().min(1),
  prefix: z.string(),
  plan: PlanSchema,
  name: z.string().nullable(),
  admin: z.boolean(),
  // Absent in files, journals and exports written before keys had scopes: such a key could do
  // everything a non-admin key can, and still does.
  scopes: z
    .array(z.enum(SCOPES))
    .optional()
    .transform((scopes): readonly Scope[] => canonicalScopes(scopes ?? UNSCOPED_KEY_SCOPES)),
  limits: KeyLimitsSchema.nullable(),
  createdAt: z.iso.datetime(),
  revokedAt: z.iso.datetime().nullable(),
  lastUsedAt: z.iso.datetime().nullable(),
  // Absent in files written before keys could expire or be rotated.
  expiresAt: z.iso.datetime().nullable().optional(),
  previousHash: z.string().min(1).nullable().optional(),
  previousHashUntil: z.iso.datetime().nullable().optional(),
  rotatedAt: z.iso.datetime().nullable().optional(),
});

/** An idempotency record in the db file and the journal; its answer is sealed by the server. */
export const IdempotencyRecordSchema = z.object({
  id: z.string().min(1),
  fingerprint: z.string().min(1),
  createdAt: z.iso.datetime(),
  answer: z.string().min(1),
});

// Whatever the store accepts it must be able to load again: a record the file schema would
// refuse would turn the next start into a StoreCorruptError.
function check<T>(schema: z.ZodType<T>, what: string, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new TypeError(`invalid ${what}: ${firstIssue(result.error)}`);
  return result.data;
}

/** `pets.3.status: Invalid option...`, about a stored record (describeIssue speaks of request bodies). */
export function firstIssue(error: z.ZodError): string {
  const summary = summarizeIssue(error);
  if (!summary) return "invalid";
  if (summary.kind === "unknown_field") return `${summary.field}: unknown field`;
  if (summary.kind === "not_an_object") return summary.rule;
  return fieldAndRule(summary);
}

/** The pet to store, frozen because the index hands the same object to every reader. */
export function newPet(id: number, input: Required<NewPet>): Pet {
  const { name, categoryId, status } = input;
  // The id is the store's own next one; the rest was checked by the route when marked so.
  if (wasChecked(input)) return Object.freeze({ id, name, categoryId, status });
  return Object.freeze(check(PetSchema, "pet", { id, name, categoryId, status }));
}

/** The pet with `patch` applied, at the next revision; throws when the result could not be loaded again. */
export function patchedPet(stored: StoredPet, patch: PetPatch): StoredPet {
  const { id, name, categoryId, status } = { ...stored.pet, ...definedFields(patch) };
  return { pet: Object.freeze(check(PetSchema, "pet", { id, name, categoryId, status })), revision: stored.revision + 1 };
}

function definedFields(patch: PetPatch): PetPatch {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
}

export function newKeyRecord(record: KeyRecord): KeyRecord {
  return freezeKeyRecord(check(KeyRecordSchema, "key", record));
}

/** The record after `rotation`: the current secret becomes the previous one, valid for the grace period. */
export function rotatedKeyRecord(record: KeyRecord, rotation: Rotation): KeyRecord {
  const { hash, prefix, graceUntil, at } = rotation;
  return freezeKeyRecord({ ...record, hash, prefix, previousHash: record.hash, previousHashUntil: graceUntil, rotatedAt: at });
}

export function freezeKeyRecord(record: KeyRecord): KeyRecord {
  const limits = record.limits && Object.freeze({ ...record.limits });
  const scopes = Object.isFrozen(record.scopes) ? record.scopes : Object.freeze([...record.scopes]);
  return Object.freeze({ ...record, scopes, limits });
}
