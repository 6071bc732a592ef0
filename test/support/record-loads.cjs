// Preloaded with `node --require` by startup-files.test.ts (CommonJS, so that the preload itself
// starts no ESM loader): at exit, writes to the file named by PETSTORE_RECORD_LOADS, as JSON, the
// built-in modules the process evaluated and the files `require` loaded.
"use strict";
const { writeFileSync } = require("node:fs");

const out = process.env.PETSTORE_RECORD_LOADS;
if (!out) throw new Error("PETSTORE_RECORD_LOADS must name the file to record loads in");
process.on("exit", () => {
  const builtins = process.moduleLoadList.filter((entry) => entry.startsWith("NativeModule ")).map((entry) => entry.slice(13));
  writeFileSync(out, JSON.stringify({ builtins, files: Object.keys(require.cache) }));
});
