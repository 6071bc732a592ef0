// The files of Swagger UI, from the swagger-ui-dist package (no CDN: the page works on a box
// without network), each read once and kept.
import packageFiles from "./swagger-ui-files.json" with { type: "json" };
import { swaggerUiFile } from "./swagger-ui-files.js";

export interface Asset {
  body: Uint8Array | string;
  contentType: string;
  /** A strong tag from the package's version and the file's name: the files never change in place. */
  etag: string;
  /** Text worth compressing (not an image). */
  compressible: boolean;
}

/**
 * The package's files the page uses (and their source maps, for the browser's developer tools),
 * by content type; a JSON file because scripts/package.mjs puts the same files in the executable.
 */
const PACKAGE_FILES: Record<string, string> = packageFiles;

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
  const { body, version } = await swaggerUiFile(name);
  return { body, contentType, etag: `"swagger-ui-${version}-${name}"`, compressible: !contentType.startsWith("image/") };
}
