// Stands in for node:child_process inside commander, which requires it at load time but uses it
// only to run executable subcommands (petstore has none). The real module (with dgram and
// socket handling behind it) is loaded on first use instead of at every start.
"use strict";

let childProcess;
module.exports = new Proxy(
  {},
  {
    get(_target, name) {
      childProcess ??= process.getBuiltinModule("node:child_process");
      return childProcess[name];
    },
  },
);
