// Migration 10; migrations.ts lists it in its place. No import of the Migration type from there:
// that would be a cycle.
import { SCOPES, UNSCOPED_KEY_SCOPES } from "../../contract/scopes.js";

const arrayOf = (values: readonly string[]) => `ARRAY[${values.map((value) => `'${value}'`).join(", ")}]::text[]`;

/**
 * Keys that can do only what they need. Every key stored before gets the scopes of a key created
 * without any, all five: it can do exactly what it could. The default stays for an instance not
 * yet upgraded during a rolling upgrade: the keys it creates are the unscoped keys it knows.
 */
export const KEY_SCOPES_MIGRATION = {
  version: 10,
  description: "key scopes: what each key may do",
  sql: `
    ALTER TABLE api_keys ADD COLUMN scopes text[] NOT NULL DEFAULT ${arrayOf(UNSCOPED_KEY_SCOPES)}
      CONSTRAINT api_keys_known_scopes CHECK (scopes <@ ${arrayOf(SCOPES)});
  `,
};
