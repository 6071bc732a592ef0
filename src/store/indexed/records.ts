import * as z from "zod";
import { KeyLimitsSchema, PetSchema, PlanSchema } from "../../contract/schemas.js";
import type { NewPet, Pet } from "../../contract/values.js";
import type { KeyRecord } from "../key-store.js";

export const KeyRecordSchema = z.object({
  id: z.string().min(1),
  hash: z.string().min(1),
  prefix: z.string(),
  plan: PlanSchema,
  name: z.string().nullable(),
  admin: z.boolean(),
  limits: KeyLimitsSchema.nullable(),
  createdAt: z.iso.datetime(),
  revokedAt: z.iso.datetime().nullable(),
  lastUsedAt: z.iso.datetime().nullable(),
});

// Whatever the store accepts it must be able to load again: a record the file schema would
// refuse would turn the next start into a StoreCorruptError.
function check<T>(schema: z.ZodType<T>, what: string, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new TypeError(`invalid ${what}: ${firstIssue(result.error)}`);
  return result.data;
}

/** `pets.3.status: Invalid option...`: the contract's describeIssue speaks of request bodies. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "invalid";
  const path = issue.path.map(String).join(".");
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** The pet to store, frozen because the index hands the same object to every reader. */
export function newPet(id: number, input: Required<NewPet>): Pet {
  const { name, categoryId, status } = input;
  return Object.freeze(check(PetSchema, "pet", { id, name, categoryId, status }));
}

export function newKeyRecord(record: KeyRecord): KeyRecord {
  return freezeKeyRecord(check(KeyRecordSchema, "key", record));
}

export function freezeKeyRecord(record: KeyRecord): KeyRecord {
  const limits = record.limits && Object.freeze({ ...record.limits });
  return Object.freeze({ ...record, limits });
}
