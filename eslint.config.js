import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "release/", "node_modules/", "coverage/", "bench/results/"] },
  js.configs.recommended,
  { files: ["**/*.cjs", "bin/*.js"], languageOptions: { sourceType: "commonjs", globals: { module: "writable", require: "readonly" } } },
  ...tseslint.configs.recommended,
  // bin/petstore.js is CommonJS (bin/package.json): start-up without the ESM loader; so is the
  // preload that checks it.
  { files: ["bin/*.js", "test/**/*.cjs"], rules: { "@typescript-eslint/no-require-imports": "off" } },
  {
    languageOptions: {
      globals: { process: "readonly", console: "readonly", Buffer: "readonly", URL: "readonly", setTimeout: "readonly", clearTimeout: "readonly", setInterval: "readonly", clearInterval: "readonly", AbortController: "readonly", TextDecoder: "readonly", TextEncoder: "readonly", performance: "readonly", Response: "readonly", Request: "readonly", Headers: "readonly", fetch: "readonly", structuredClone: "readonly" },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  // Importing package.json bundles all of it (scripts, devDependencies) into what users run.
  {
    files: ["src/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["**/package.json"], message: "use VERSION or LICENSE from src/support/package-info.ts" }] }],
    },
  },
);
