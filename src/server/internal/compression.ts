// Compression of JSON answers (RFC 9110 8.4, 12.5.3): gzip or br when the client accepts one and
// the body is worth it. Compressing a listing's body (br or gzip, both at level 4) costs several
// times a whole uncompressed request, so a compressed body is kept per ETag (a page's names its pets' ids and revisions) and reused while
// the page does not change; each reuse is checked against the body, so a stale entry is never sent.
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** Bodies under this many bytes go as they are: the headers and the CPU would cost more than they save. */
export const COMPRESS_MIN_BYTES = 1024;

export type Coding = "br" | "gzip";

const GZIP_LEVEL = 4;
const BROTLI_QUALITY = 4;
/** Compressed bodies kept, by ETag and coding: a few MB at most. */
const CACHE_ENTRIES = 512;

/**
 * The coding to answer with: the acceptable one with the highest q, br on a tie (smaller for the
 * same CPU). `*` stands for any coding not named; q=0 refuses one. Undefined: send it as it is.
 * @example chooseCoding("gzip, deflate, br") === "br"; chooseCoding("gzip;q=1, br;q=0.5") === "gzip"
 */
export function chooseCoding(acceptEncoding: string | null): Coding | undefined {
  if (acceptEncoding === null) return undefined;
  const q: Partial<Record<Coding | "*", number>> = {};
  for (const part of acceptEncoding.split(",")) {
    const [token = "", ...parameters] = part.split(";");
    const name = token.trim().toLowerCase();
    if (name !== "br" && name !== "gzip" && name !== "x-gzip" && name !== "*") continue;
    q[name === "x-gzip" ? "gzip" : name] = qualityOf(parameters);
  }
  const br = q.br ?? q["*"] ?? 0;
  const gzip = q.gzip ?? q["*"] ?? 0;
  if (br <= 0 && gzip <= 0) return undefined;
  return br >= gzip ? "br" : "gzip";
}

function qualityOf(parameters: string[]): number {
  for (const parameter of parameters) {
    const [name, value] = parameter.split("=").map((piece) => piece.trim());
    if (name?.toLowerCase() === "q" && value !== undefined) {
      const q = Number(value);
      return Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 1;
    }
  }
  return 1;
}

/** The compressed representation's own strong ETag: `"page-abc"` becomes `"page-abc-br"` (RFC 9110 8.8.3). */
export const codedEtag = (etag: string, coding: Coding): string => `${etag.slice(0, -1)}-${coding}"`;

/** The tag a coded ETag was made from: what If-None-Match and If-Match compare. */
export const uncodedEtag = (tag: string): string => tag.replace(/-(?:br|gzip)"$/, '"');

interface CacheEntry {
  source: string;
  body: Buffer;
}

const cache = new Map<string, CacheEntry>();

/** The body in `coding`, from the cache when this ETag's body was compressed before. */
export function compress(body: string, coding: Coding, etag: string | undefined): Buffer {
  const key = etag === undefined ? undefined : `${coding} ${etag}`;
  const cached = key === undefined ? undefined : cache.get(key);
  if (cached && cached.source === body) return cached.body;
  const compressed = coding === "br" ? brotli(body) : gzipSync(body, { level: GZIP_LEVEL });
  if (key !== undefined) remember(key, { source: body, body: compressed });
  return compressed;
}

function brotli(body: string): Buffer {
  const params = { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(body) };
  return brotliCompressSync(body, { params });
}

/** Least recently used out first: a Map iterates in insertion order, so a hit moves to the end. */
function remember(key: string, entry: CacheEntry): void {
  cache.delete(key);
  cache.set(key, entry);
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
}

export type HeaderList = Array<[string, string]>;

/**
 * A JSON answer as it goes out: compressed when the request accepts br or gzip and the body is
 * at least COMPRESS_MIN_BYTES, with Content-Encoding, Content-Length and its coded ETag; with
 * `Vary: Accept-Encoding` whenever the request sent Accept-Encoding, compressed or not.
 * Only success answers (2xx) are compressed; errors are short and go as they are.
 */
export function encodeAnswer(acceptEncoding: string | null, status: number, body: string, headers: HeaderList): string | Buffer {
  if (acceptEncoding === null || status < 200 || status >= 300) return body;
  headers.push(["vary", "Accept-Encoding"]);
  // A UTF-16 unit is at most 3 bytes of UTF-8: most short bodies stop here without counting.
  if (body.length * 3 < COMPRESS_MIN_BYTES) return body;
  const coding = chooseCoding(acceptEncoding);
  if (coding === undefined || Buffer.byteLength(body) < COMPRESS_MIN_BYTES) return body;
  const etagAt = headers.findIndex(([name]) => name === "etag");
  const etag = etagAt < 0 ? undefined : headers[etagAt]![1];
  const compressed = compress(body, coding, etag);
  if (etag !== undefined) headers[etagAt] = ["etag", codedEtag(etag, coding)];
  headers.push(["content-encoding", coding], ["content-length", String(compressed.length)]);
  return compressed;
}

/**
 * The ETag of a 304: the coded tag the client holds when If-None-Match names it (the one its
 * cache stored with the compressed body), else the plain one; with Vary as the 200 would have it.
 */
export function notModifiedHeaders(acceptEncoding: string | null, ifNoneMatch: string | null, etag: string): HeaderList {
  if (acceptEncoding === null) return [["etag", etag]];
  const coding = chooseCoding(acceptEncoding);
  const coded = coding === undefined ? undefined : codedEtag(etag, coding);
  const held = coded !== undefined && ifNoneMatch?.includes(coded) ? coded : etag;
  return [["etag", held], ["vary", "Accept-Encoding"]];
}
