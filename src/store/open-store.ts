// Transitional, for three tests outside the store's area (test/server/errors.test.ts,
// test/fault/slow-clients.test.ts, test/scale/first-admin.test.ts) until they import the engines
// directly: delete at merge. Nothing in src/ imports it, so it closes no cycle and loads no engine
// into `serve`.
export { openMemoryStore } from "./memory/open-memory-store.js";
export { openPostgresStore } from "./postgres/open-postgres-store.js";
