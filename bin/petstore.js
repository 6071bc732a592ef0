#!/usr/bin/env node
// CommonJS (bin/package.json), as dist/cli.cjs is: a command that loads nothing lazily, such as
// --help, never starts Node's ESM loader (scripts/build/two-part-bundle.mjs).
const { main, createProcessContext } = require("../dist/cli.cjs");

main(process.argv.slice(2), createProcessContext()).then((code) => {
  process.exitCode = code;
});
