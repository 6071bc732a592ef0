// GET /docs: the API reference (Swagger UI) of the live document, and its files. Outside /v1, no
// key, and not in the document: it is a page about the API, not an operation of it. Not counted
// against the anonymous limit either (a page load is some seven files), but bounded per client
// address by a count of its own (DOCS_LIMITS). Compressed when accepted, and cached by browsers.
import { hash } from "node:crypto";
import type { H3, H3Event } from "h3";
import { DOCS_LIMITS } from "../../contract/limits.js";
import { codedEtag, uncodedEtag } from "../internal/compression.js";
import type { OwnBucket } from "../middleware/guard.js";
import { codingFor, encodedBody } from "./encoded-assets.js";
import { methodNotAllowed, notFound } from "../errors.js";
import { packageAsset, type Asset } from "./assets.js";
import { DOCS_CSP, DOCS_CSS, DOCS_HTML, DOCS_INIT_JS, DOCS_PATH } from "./page.js";

/** Our own files: they change with petstore, so the browser checks them again on every load. */
const OWN_FILES: Record<string, Asset> = {
  "": ownAsset(DOCS_HTML, "text/html; charset=utf-8"),
  "docs-init.js": ownAsset(DOCS_INIT_JS, "text/javascript; charset=utf-8"),
  "docs.css": ownAsset(DOCS_CSS, "text/css; charset=utf-8"),
};

/** The package's files are named by its version (in the ETag): a day in the cache, then revalidated. */
const PACKAGE_CACHE = "public, max-age=86400";
const OWN_CACHE = "no-cache";
const ALLOW = ["GET", "HEAD"];

/** Registers /docs, its files under /docs/, and /favicon.ico (which Chromium always asks for). */
export function registerDocs(app: H3): void {
  // The guard lets routes marked unlimited through without a key; these it counts in their bucket (see guard.ts).
  const bucket: OwnBucket = { name: "docs", limits: DOCS_LIMITS };
  const meta = (routerPath: string) => ({ meta: { routerPath, unlimited: true, ownCaching: true, bucket } });
  app.all(DOCS_PATH, (event) => serveFile(event, ""), meta(DOCS_PATH));
  app.all(`${DOCS_PATH}/:file`, (event) => serveFile(event, event.context.params?.file ?? ""), meta(`${DOCS_PATH}/:file`));
  app.all("/favicon.ico", (event) => serveFile(event, "favicon-32x32.png"), meta("/favicon.ico"));
}

async function serveFile(event: H3Event, name: string): Promise<Response> {
  if (!ALLOW.includes(event.req.method)) throw methodNotAllowed(event.req.method, ALLOW);
  const own = OWN_FILES[name];
  const asset = own ?? (await packageAsset(name));
  if (!asset) throw notFound(`no such file: ${DOCS_PATH}/${name}`);
  const acceptEncoding = event.req.headers.get("accept-encoding");
  const coding = codingFor(asset, acceptEncoding);
  const headers: Record<string, string> = {
    "content-type": asset.contentType,
    "cache-control": own ? OWN_CACHE : PACKAGE_CACHE,
    // Each coding is a representation of its own, with its own strong tag (RFC 9110 8.8.3).
    etag: coding ? codedEtag(asset.etag, coding) : asset.etag,
    "content-security-policy": DOCS_CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
  };
  if (acceptEncoding !== null && asset.compressible) headers.vary = "Accept-Encoding";
  if (matches(event.req.headers.get("if-none-match"), asset.etag)) return new Response(null, { status: 304, statusText: "Not Modified", headers });
  if (coding) headers["content-encoding"] = coding;
  const body = event.req.method === "HEAD" ? null : coding ? await encodedBody(asset, coding) : asset.body;
  return new Response(body, { status: 200, statusText: "OK", headers });
}

function ownAsset(body: string, contentType: string): Asset {
  return { body, contentType, etag: `"docs-${hash("sha256", body, "base64url").slice(0, 16)}"`, compressible: true };
}

/** If-None-Match (RFC 9110 13.1.2): `*` or a list of tags, compared weakly; a coded tag names the same file. */
function matches(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => uncodedEtag(tag.trim().replace(/^W\//, "")) === etag);
}
