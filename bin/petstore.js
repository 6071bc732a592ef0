#!/usr/bin/env node
// CommonJS (bin/package.json), as dist/cli.cjs is: a command that loads nothing lazily, such as
// --help, never starts Node's ESM loader (scripts/build/two-part-bundle.mjs). cli.cjs is compiled
// with a V8 code cache when one is there (code-cache.js).
const { requireWithCodeCache } = require("./code-cache.js");

const cli = requireWithCodeCache(require.resolve("../dist/cli.cjs"));
const { main, createProcessContext } = cli.exports;

main(process.argv.slice(2), createProcessContext()).then((code) => {
  process.exitCode = code;
  // A throwaway server (serve --ephemeral) writes nothing, the code cache included.
  if (!process.argv.includes("--ephemeral")) cli.save();
});
