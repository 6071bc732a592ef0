// `serve --cors-origin` (and PETSTORE_CORS_ORIGINS): the browser origins allowed to call the API.
import { UsageError } from "../errors.js";

const WHAT = "an origin such as https://app.example.com (scheme, host and port; no path)";

/**
 * Comma-separated origins, each serialised as browsers send it in Origin: lower-case host,
 * no default port, no trailing slash (given with one, it is dropped). `*` and `null` are refused:
 * name the origins that may read the answers.
 *
 * @example parseCorsOrigins("https://App.example.com:443/, http://localhost:5173") // ["https://app.example.com", "http://localhost:5173"]
 */
export function parseCorsOrigins(value: string): string[] {
  const origins = value.split(",").map((item) => item.trim());
  if (origins.some((item) => item === "")) throw new UsageError(`--cors-origin must be a comma-separated list of origins, got "${value}"`);
  return [...new Set(origins.map(parseOrigin))];
}

function parseOrigin(text: string): string {
  if (text === "*" || text === "null") throw new UsageError(`--cors-origin must name each origin, not "${text}"`);
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) throw new UsageError(`--cors-origin must be ${WHAT}, got "${text}"`);
  if (url.username !== "" || url.password !== "" || url.pathname !== "/" || url.search !== "" || url.hash !== "" || /[?#]/.test(text)) {
    throw new UsageError(`--cors-origin must be ${WHAT}, got "${text}"`);
  }
  return url.origin;
}
