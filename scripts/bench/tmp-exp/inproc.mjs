import { build } from "esbuild";
import { pathToFileURL } from "node:url";
const out = new URL("../../../dist/bench/inproc.mjs", import.meta.url).pathname;
await build({ entryPoints: [new URL("./inproc.ts", import.meta.url).pathname], outfile: out, bundle: true, format: "esm", platform: "node", packages: "external", logLevel: "warning", sourcemap: false });
await import(pathToFileURL(out).href);
