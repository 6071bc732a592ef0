// jq-web inside the single executable: its JS is bundled (scripts/build/sea-app.mjs hands its
// Emscripten module jq.wasm from the SEA's assets, as no file lies beside the executable).
import type { Jq } from "jq-web";

/** jq-web, loaded on first call: its module.exports is a promise of jq, compiled as it loads. */
export function loadJqWeb(): Promise<Jq> {
  // A require() that esbuild bundles: import() would wrap the promise in a namespace whose
  // prototype is Promise's, which await cannot resolve.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("jq-web") as Promise<Jq>;
}
