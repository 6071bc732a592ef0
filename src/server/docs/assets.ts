// The files of Swagger UI, read from the installed swagger-ui-dist package (no CDN: the page works
// on a box without network), each read once and kept.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export interface Asset {
  body: Uint8Array | string;
  contentType: string;
  /** A strong tag from the package's version and the file's name: the files never change in place. */
  etag: string;
  /** Text worth compressing (not an image). */
  compressible: boolean;
}

/** The package's files the page uses (and their source maps, for the browser's developer tools). */
const PACKAGE_FILES: Record<string, string> = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-bundle.js.map": "application/json",
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui.css.map": "application/json",
  "favicon-32x32.png": "image/png",
  "favicon-16x16.png": "image/png",
};

const require = createRequire(import.meta.url);
let packageDir: { dir: string; version: string } | undefined;
const cache = new Map<string, Promise<Asset>>();

/** A file of swagger-ui-dist by name, or undefined for any other name. */
export function packageAsset(name: string): Promise<Asset> | undefined {
  const contentType = PACKAGE_FILES[name];
  if (contentType === undefined) return undefined;
  let asset = cache.get(name);
  if (!asset) {
    asset = readAsset(name, contentType);
    // A failed read (a broken install) is tried again next time, not remembered.
    asset.catch(() => cache.delete(name));
    cache.set(name, asset);
  }
  return asset;
}

async function readAsset(name: string, contentType: string): Promise<Asset> {
  const { dir, version } = swaggerUiDist();
  const body = new Uint8Array(await readFile(join(dir, name)));
  return { body, contentType, etag: `"swagger-ui-${version}-${name}"`, compressible: !contentType.startsWith("image/") };
}

function swaggerUiDist(): { dir: string; version: string } {
  if (!packageDir) {
    const manifest = require.resolve("swagger-ui-dist/package.json");
    const { version } = require(manifest) as { version: string };
    packageDir = { dir: dirname(manifest), version };
  }
  return packageDir;
}
