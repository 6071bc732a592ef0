// Every record checked against the contract's NewPet schema before anything is sent, so a file
// with a typo on line 9,000 fails in a second rather than after 8,999 creates.
import { NewPetSchema } from "../../../contract/schemas.js";
import type { NewPet } from "../../../contract/values.js";
import type { RawRecord } from "./read-records.js";

export interface ValidRecord {
  /** The record's position in the file (0-based): with the file's hash, its Idempotency-Key. */
  index: number;
  line: number;
  pet: NewPet;
}

export interface InvalidRecord {
  index: number;
  line: number;
  error: string;
}

export function validateRecords(records: readonly RawRecord[]): { valid: ValidRecord[]; invalid: InvalidRecord[] } {
  const valid: ValidRecord[] = [];
  const invalid: InvalidRecord[] = [];
  records.forEach((record, index) => {
    if (record.value instanceof SyntaxError) {
      invalid.push({ index, line: record.line, error: record.value.message });
      return;
    }
    const parsed = NewPetSchema.safeParse(record.value);
    if (parsed.success) valid.push({ index, line: record.line, pet: parsed.data });
    else invalid.push({ index, line: record.line, error: parsed.error.issues.map(describeIssue).join("; ") });
  });
  return { valid, invalid };
}

function describeIssue(issue: { path: PropertyKey[]; message: string }): string {
  const where = issue.path.map(String).join(".");
  return where === "" ? issue.message : `${where}: ${issue.message}`;
}
