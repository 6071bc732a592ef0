// What the program knows of package.json: its version and licence, written in as literals by
// esbuild's `define` (scripts/build.mjs) and vitest's (vitest.config.ts). Importing package.json
// instead put all of it (scripts, devDependencies) into the bundle users run.
declare const PETSTORE_VERSION: string | undefined;
declare const PETSTORE_LICENSE: string | undefined;

/** Source run outside the build and vitest (a bench bundling src/ itself) says so, rather than fail. */
const UNBUILT = "0.0.0-unbuilt";

/** The package's version, as `petstore --version` prints it. */
export const VERSION: string = typeof PETSTORE_VERSION === "string" ? PETSTORE_VERSION : UNBUILT;

/** The package's licence, an SPDX identifier. */
export const LICENSE: string = typeof PETSTORE_LICENSE === "string" ? PETSTORE_LICENSE : "UNLICENSED";
