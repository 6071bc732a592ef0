// jq-web from node_modules, where the npm build leaves it: Emscripten reads jq.wasm from beside its JS.
// The single executable builds jq-web-module.sea.ts instead.
import { createRequire } from "node:module";
import type { Jq } from "jq-web";

/** jq-web, loaded on first call: its module.exports is a promise of jq, compiled as it loads. */
export function loadJqWeb(): Promise<Jq> {
  // Required, not imported: an import() of it is awaited as a promise (the namespace has its
  // `then`) under some loaders.
  return createRequire(import.meta.url)("jq-web") as Promise<Jq>;
}
