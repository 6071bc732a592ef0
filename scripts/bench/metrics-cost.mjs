// Bundles metrics-cost.ts (TypeScript, importing src/) into a temporary file and runs it.
import { build } from "esbuild";
import { fileURLToPath, pathToFileURL } from "node:url";
import { packageDefines } from "../build/package-defines.mjs";

// Inside the repository, so that its imports resolve from node_modules; dist/ is ignored by git.
const out = new URL("../../dist/bench/metrics-cost.mjs", import.meta.url).pathname;
await build({
  entryPoints: [new URL("./metrics-cost.ts", import.meta.url).pathname],
  outfile: out,
  bundle: true,
  format: "esm",
  platform: "node",
  packages: "external",
  define: packageDefines(fileURLToPath(new URL("../..", import.meta.url))),
  logLevel: "warning",
});
await import(pathToFileURL(out).href);
