// What the npm build (scripts/build.mjs) and the single executable's (scripts/package.mjs) have in
// common: the CLI's entry, the start-up trims, and the modules loaded as CommonJS leaves.
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
export const ENTRY = `${ROOT}/src/cli/main.ts`;

// undici and petstore's transport over it, as CommonJS required on the first request: `pets list`
// then never starts the ESM loader either.
export const CJS_LEAVES = ["src/cli/internal/undici-transport.ts"];

const stub = (name) => `${ROOT}/scripts/build/${name}`;

/** Modules a dependency loads at start-up but petstore never uses, replaced by a stub. */
export const startupTrim = {
  name: "startup-trim",
  setup(build) {
    build.onResolve({ filter: /client-h2\.js$/ }, (args) =>
      args.importer.includes("/node_modules/undici/") ? { path: stub("undici-without-http2.cjs") } : undefined,
    );
    // undici's index is the public fallback of src/cli/internal/undici-parts.ts: loaded from
    // node_modules if ever used, never bundled (the private parts are what keeps it out).
    build.onResolve({ filter: /^undici$/ }, (args) => (args.kind === "dynamic-import" ? { path: "undici", external: true } : undefined));
    build.onResolve({ filter: /^#supports-color$/ }, (args) =>
      args.importer.includes("/node_modules/chalk/") ? { path: stub("chalk-without-detection.cjs") } : undefined,
    );
    build.onResolve({ filter: /^node:child_process$/ }, (args) =>
      args.importer.includes("/node_modules/commander/") ? { path: stub("lazy-child-process.cjs") } : undefined,
    );
  },
};
