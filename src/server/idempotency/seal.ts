// The stored answer of an idempotent create, encrypted so that no store ever holds it in clear:
// createKey's answer carries the new key's secret. The key is derived from the CALLER's bearer
// secret, which the server holds only while that caller makes a request; so the db file, the
// journal and the PostgreSQL table hold ciphertext that only the same caller can have opened.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** An answer as it is given again: status, the headers that belong to it, and the JSON body. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
const INFO = "petstore idempotent answer v1";

/** AES-256-GCM under a key derived (HKDF-SHA256) from the caller's secret and the record's id. */
export function sealAnswer(answer: StoredAnswer, callerSecret: string, recordId: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keyFor(callerSecret, recordId), iv);
  const text = Buffer.concat([cipher.update(JSON.stringify(answer), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), text]).toString("base64url");
}

/** The answer, or undefined when it was sealed under another secret (or was altered). */
export function openAnswer(sealed: string, callerSecret: string, recordId: string): StoredAnswer | undefined {
  const bytes = Buffer.from(sealed, "base64url");
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyFor(callerSecret, recordId), bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const text = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
    return JSON.parse(text) as StoredAnswer;
  } catch {
    return undefined;
  }
}

function keyFor(callerSecret: string, recordId: string): Buffer {
  return Buffer.from(hkdfSync("sha256", callerSecret, recordId, INFO, 32));
}
