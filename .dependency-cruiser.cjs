// The import graph's rules, checked by `npm run lint` (depcruise): layers point one way and no
// module imports itself back through others. A rule broken here is a design question, not a
// lint nit: fix the layering rather than the rule.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A cycle makes every module in it load, and change, together.",
      from: {},
      to: { circular: true },
    },
    {
      name: "support-is-a-leaf",
      severity: "error",
      comment: "src/support holds helpers any layer may use, so it imports no layer of ours.",
      from: { path: "^src/support/" },
      to: { path: "^src/", pathNot: "^src/support/" },
    },
    {
      name: "contract-stands-alone",
      severity: "error",
      comment: "The contract is shared by server, client and document: it imports only itself and support.",
      from: { path: "^src/contract/" },
      to: { path: "^src/", pathNot: "^src/(contract|support)/" },
    },
    {
      name: "engines-below-the-server",
      severity: "error",
      comment: "Stores and limiters are engines the server is built from; they know nothing of HTTP or the CLI.",
      from: { path: "^src/(store|limits)/" },
      to: { path: "^src/(server|cli)/" },
    },
    {
      name: "limits-apart-from-store",
      severity: "error",
      comment: "The rate limiter and the pet/key store are separate engines; what they share lives in support.",
      from: { path: "^src/limits/" },
      to: { path: "^src/store/" },
    },
    {
      name: "store-apart-from-limits",
      severity: "error",
      from: { path: "^src/store/" },
      to: { path: "^src/limits/" },
    },
    {
      name: "routes-not-middleware",
      severity: "error",
      comment: "Handlers get what they need from the contract table and the event, not from the guard.",
      from: { path: "^src/server/routes/" },
      to: { path: "^src/server/middleware/" },
    },
    {
      name: "server-not-cli",
      severity: "error",
      comment: "The server never depends on the client.",
      from: { path: "^src/server/" },
      to: { path: "^src/cli/" },
    },
    {
      name: "client-never-loads-the-server-eagerly",
      severity: "error",
      comment: "Client commands must start fast: server, store and limits are only ever imported lazily (serve).",
      from: { path: "^src/cli/" },
      to: { path: "^src/(server|store|limits)/", dynamic: false, dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    includeOnly: "^src/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
