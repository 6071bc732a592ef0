import { hash } from "node:crypto";

/**
 * The id of an idempotency record: a digest of the caller's key id and the Idempotency-Key, so
 * two API keys using the same Idempotency-Key never meet, and the stored id has a fixed size.
 */
export function recordId(callerId: string, idempotencyKey: string): string {
  return hash("sha256", `${callerId}\n${idempotencyKey}`, "base64url");
}

/**
 * A digest of the canonical request: method, path and the parsed body with its keys sorted, so
 * a retry that only reorders keys or changes whitespace still matches, and any other change does not.
 * @example fingerprint("POST", "/v1/pets", { name: "Rex", categoryId: 1 }) === fingerprint("POST", "/v1/pets", { categoryId: 1, name: "Rex" })
 */
export function fingerprint(method: string, path: string, body: unknown): string {
  return hash("sha256", `${method} ${path}\n${canonicalJson(body)}`, "base64url");
}

/** JSON with object keys sorted at every depth. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}
