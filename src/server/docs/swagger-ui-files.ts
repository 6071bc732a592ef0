// Swagger UI's files where the npm install has them: the installed swagger-ui-dist package. The
// single executable replaces this module with swagger-ui-files.sea.ts (scripts/package.mjs).
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

let packageDir: { dir: string; version: string } | undefined;

/** One file of swagger-ui-dist by name, and the package's version (the files never change within one). */
export async function swaggerUiFile(name: string): Promise<{ body: Uint8Array; version: string }> {
  const { dir, version } = swaggerUiDist();
  return { body: new Uint8Array(await readFile(join(dir, name))), version };
}

function swaggerUiDist(): { dir: string; version: string } {
  if (!packageDir) {
    const require = createRequire(import.meta.url);
    const manifest = require.resolve("swagger-ui-dist/package.json");
    const { version } = require(manifest) as { version: string };
    packageDir = { dir: dirname(manifest), version };
  }
  return packageDir;
}
