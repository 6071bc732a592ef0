// What the bundle takes from package.json: its version and licence as literals (esbuild `define`),
// so the file itself (scripts, devDependencies) is never bundled. src/support/package-info.ts reads them.
import { readFileSync } from "node:fs";

/** esbuild's `define` for the package at `root`. */
export function packageDefines(root) {
  const pkg = JSON.parse(readFileSync(new URL("package.json", `file://${root.replace(/\/?$/, "/")}`), "utf8"));
  return { PETSTORE_VERSION: JSON.stringify(pkg.version), PETSTORE_LICENSE: JSON.stringify(pkg.license) };
}
