// A 404 for a path every petstore server answers (a collection, not a record) says the base URL
// does not point at the API, typically because it lacks the version prefix: reported as that
// (exit 1, with the URL to use), never as "not found". A 404 for a record's path stays exit 4.
import type { ErrorBody } from "../../contract/values.js";

/**
 * The API's paths without a parameter that every server answers (GET /events and POST
 * /admin/backup can answer 404 on a server that does not serve them, so they are not here).
 */
export const ALWAYS_ANSWERED_PATHS: ReadonlySet<string> = new Set(["/pets", "/store/orders", "/store/inventory", "/keys", "/keys/current", "/openapi.json"]);

/** The version segment the API lives under (the spec: the base address carries v1). */
const API_VERSION_SEGMENT = "/v1";

/** The path of `url` under the base URL (`/pets`), or undefined when it is not under it. */
export function pathUnderBase(baseUrl: string, url: string): string | undefined {
  const base = new URL(baseUrl);
  const target = new URL(url);
  const prefix = base.pathname.replace(/\/+$/, "");
  if (target.origin !== base.origin || !target.pathname.startsWith(`${prefix}/`)) return undefined;
  return target.pathname.slice(prefix.length);
}

/** Whether a 404 for `url` means the base URL is wrong, rather than that a record is missing. */
export function isWrongBaseUrl(status: number, baseUrl: string, url: string): boolean {
  if (status !== 404) return false;
  const path = pathUnderBase(baseUrl, url);
  return path !== undefined && ALWAYS_ANSWERED_PATHS.has(path);
}

/** The Error body and hint for such a 404: what was asked, and the base URL to use. */
export function wrongBaseUrl(baseUrl: string, method: string, url: string): { body: ErrorBody; hint: string } {
  const path = pathUnderBase(baseUrl, url) ?? new URL(url).pathname;
  const message = `${method} ${path} answered 404: the base URL ${baseUrl} does not point at the petstore API`;
  return { body: { code: "unexpected_response", message, status: 404 }, hint: baseUrlHint(baseUrl) };
}

/** For any 404 under a base URL without the version segment: the URL to try. */
export function missingVersionHint(baseUrl: string): string | undefined {
  if (new URL(baseUrl).pathname.replace(/\/+$/, "").endsWith(API_VERSION_SEGMENT)) return undefined;
  return `The base URL ${baseUrl} does not end with ${API_VERSION_SEGMENT}, where the API is: try ${withVersion(baseUrl)}.`;
}

function baseUrlHint(baseUrl: string): string {
  const where = "(--base-url, PETSTORE_BASE_URL, or `petstore config set base-url`)";
  return (
    missingVersionHint(baseUrl)?.replace(/\.$/, ` ${where}.`) ??
    `Check the base URL ${where}: it is where the API answers, as in http://127.0.0.1:3000${API_VERSION_SEGMENT}.`
  );
}

function withVersion(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${API_VERSION_SEGMENT}`;
}
