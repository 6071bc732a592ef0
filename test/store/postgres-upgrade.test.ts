// A PostgreSQL database written by the petstore before key scopes (every migration but 10) is
// migrated at open: every key keeps exactly what it could do.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { SCOPES } from "../../src/contract/scopes.js";
import { MIGRATIONS } from "../../src/store/postgres/migrations.js";
import { openPostgresStore } from "../../src/store/postgres/open-postgres-store.js";
import { oldKeys, oldPostgresStore } from "../helpers/old-stores.js";
import { keyRecord } from "./support.js";

describe("a PostgreSQL schema from before key scopes (migration 10)", () => {
  it("is migrated at open; each key is what it was, field for field, with the five scopes; the admin stays admin", async () => {
    const { db } = await oldPostgresStore();
    const store = await openPostgresStore(db, { warn: () => undefined });
    try {
      const keys = await store.keys.list();
      const before = (await oldKeys()).map((key) => ({
        expiresAt: null, previousHash: null, previousHashUntil: null, rotatedAt: null, ...key, scopes: SCOPES,
      }));
      expect(keys).toEqual(before);
      expect(keys.filter((key) => key.admin).map((key) => key.id)).toEqual(["key_v2admin"]);
      expect(await store.keys.hasAdminKey()).toBe(true);
      await store.keys.create(keyRecord("key_narrow", { scopes: ["orders:write", "orders:read"] }));
      expect((await store.keys.findByHash("hash-of-key_narrow"))?.scopes).toEqual(["orders:read", "orders:write"]);
    } finally {
      await store.close();
    }
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    try {
      const { rows } = await client.query<{ version: number }>("SELECT version FROM schema_migrations ORDER BY version");
      expect(rows.map((row) => row.version)).toEqual(MIGRATIONS.map((migration) => migration.version).sort((a, b) => a - b));
      expect(rows.map((row) => row.version)).toContain(10);
      // The column refuses what no petstore knows.
      await expect(client.query("UPDATE api_keys SET scopes = ARRAY['keys:write'] WHERE id = 'key_v2pro'")).rejects.toThrow(/api_keys_known_scopes/);
    } finally {
      await client.end();
    }
  });
});
