import { hash } from "node:crypto";

/**
 * The id of an idempotency record: a digest of the caller's key id and the Idempotency-Key, so
 * two API keys using the same Idempotency-Key never meet, and the stored id has a fixed size.
 */
export function recordId(callerId: string, idempotencyKey: string): string {
  return hash("sha256", `${callerId}\n${idempotencyKey}`, "base64url");
}

/**
 * A digest of the canonical request: method, target (canonicalTarget) and the parsed body with
 * its keys sorted, so a retry that only reorders keys or parameters, adds a trailing slash or
 * changes whitespace still matches, and any other change (a parameter's value) does not.
 * @example fingerprint("POST", canonicalTarget("/v1/pets/", ""), { name: "Rex", categoryId: 1 }) === fingerprint("POST", "/v1/pets", { categoryId: 1, name: "Rex" })
 */
export function fingerprint(method: string, target: string, body: unknown): string {
  return hash("sha256", `${method} ${target}\n${canonicalJson(body)}`, "base64url");
}

/**
 * The path without trailing slashes (the router takes `/v1/pets/` for `/v1/pets`), then the query
 * decoded and sorted by name (values of one name keep their order): the same request however it
 * was spelled.
 * @example canonicalTarget("/v1/pets/", "?b=2&a=1") === "/v1/pets?a=1&b=2"
 */
export function canonicalTarget(pathname: string, search: string): string {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (search === "" || search === "?") return path;
  const parameters = [...new URLSearchParams(search)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${path}?${new URLSearchParams(parameters).toString()}`;
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
