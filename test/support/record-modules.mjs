// Preloaded with `node --import` by lazy-engines.test.ts: records every module the process loads,
// one path or URL a line, in the file named by PETSTORE_RECORD_MODULES. ES modules are seen by a
// load hook (it runs in the loader thread, hence the file rather than memory); CommonJS modules
// loaded by require() are read from the require cache at exit.
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";

const out = process.env.PETSTORE_RECORD_MODULES;
if (!out) throw new Error("PETSTORE_RECORD_MODULES must name the file to record loaded modules in");
register("./record-modules-hooks.mjs", { parentURL: import.meta.url, data: { out } });
process.on("exit", () => {
  const required = Object.keys(createRequire(import.meta.url).cache);
  if (required.length > 0) appendFileSync(out, `${required.join("\n")}\n`);
});
