// Swagger UI's files inside the single executable: assets that scripts/package.mjs put in it under
// `swagger-ui-dist/`, with the package's manifest. It builds this module in place of swagger-ui-files.ts.
import { getAsset } from "node:sea";

const PREFIX = "swagger-ui-dist/";
let version: string | undefined;

/** One file of swagger-ui-dist by name, and the package's version (the files never change within one). */
export async function swaggerUiFile(name: string): Promise<{ body: Uint8Array; version: string }> {
  version ??= (JSON.parse(getAsset(`${PREFIX}package.json`, "utf8")) as { version: string }).version;
  return { body: new Uint8Array(getAsset(`${PREFIX}${name}`)), version };
}
