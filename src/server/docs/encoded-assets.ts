// The /docs files compressed once, the first time a client that accepts br or gzip asks for each,
// then kept with the file (Swagger UI's bundle shrinks to about a quarter in either).
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { chooseCoding, COMPRESS_MIN_BYTES, type Coding } from "../internal/compression.js";
import type { Asset } from "./assets.js";

/** In zlib's thread pool, never on the event loop; a middling quality: the highest takes many times as long for little gain. */
const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 9;

const compressBrotli = promisify(brotliCompress);
const compressGzip = promisify(gzip);
const encoded = new WeakMap<Asset, Map<Coding, Promise<Uint8Array>>>();

/** The coding to send `asset` in for this Accept-Encoding: none for images and small files. */
export function codingFor(asset: Asset, acceptEncoding: string | null): Coding | undefined {
  if (!asset.compressible || asset.body.length < COMPRESS_MIN_BYTES) return undefined;
  return chooseCoding(acceptEncoding);
}

/** The asset's body in `coding`, compressed on first use; concurrent first uses share one compression. */
export function encodedBody(asset: Asset, coding: Coding): Promise<Uint8Array> {
  let byCoding = encoded.get(asset);
  if (!byCoding) encoded.set(asset, (byCoding = new Map()));
  let body = byCoding.get(coding);
  if (!body) {
    body = compress(asset.body, coding);
    byCoding.set(coding, body);
    // A failure is tried again next time, not remembered.
    body.catch(() => byCoding.delete(coding));
  }
  return body;
}

async function compress(body: Uint8Array | string, coding: Coding): Promise<Uint8Array> {
  const input = typeof body === "string" ? Buffer.from(body) : body;
  if (coding === "gzip") return compressGzip(input, { level: GZIP_LEVEL });
  return compressBrotli(input, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: input.byteLength } });
}
