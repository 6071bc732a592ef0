// PostgreSQL's migration to searchable names: an existing database upgrades (its names folded
// by petstore's own code), a second run changes nothing, and without pg_trgm petstore still
// answers searches, says so, and adds the index at a later start once the extension can be had.
// Needs PostgreSQL: vitest project "postgres" only.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS, migrate } from "../../src/store/postgres/migrations.js";
import { openPostgresStore } from "../../src/store/postgres/open-postgres-store.js";
import { freshDatabase } from "../helpers/test-backend.js";

const pools: pg.Pool[] = [];
const poolFor = (url: string) => {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pools.push(pool);
  return pool;
};
afterAll(() => Promise.all(pools.map((pool) => pool.end())));

const indexesOf = async (pool: pg.Pool) =>
  (await pool.query<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE tablename = 'pets' ORDER BY indexname")).rows.map((row) => row.indexname);

describe("migration 9: name_key and its indexes", () => {
  it("folds the names of an existing database, and a second run changes nothing", async () => {
    const { db } = await freshDatabase();
    const pool = poolFor(db);
    expect(await migrate(pool, { migrations: MIGRATIONS.filter((migration) => migration.version <= 8) })).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const names = ["ÉMILE", "Straße", "ΚΟΣΜΟΣ", "rex", ...Array.from({ length: 12_000 }, (_, i) => `Pet ${i}`)];
    await pool.query("INSERT INTO pets (name, category_id, status) SELECT unnest($1::text[]), 1, 'available'", [names]);
    const eventsBefore = (await pool.query("SELECT count(*)::int AS n FROM events")).rows[0].n;

    const warnings: string[] = [];
    expect(await migrate(pool, { warn: (message) => warnings.push(message) })).toEqual(MIGRATIONS.map((migration) => migration.version).filter((version) => version > 8));
    expect(warnings).toEqual([]);
    const { rows } = await pool.query<{ name: string; name_key: string; revision: number }>("SELECT name, name_key, revision FROM pets ORDER BY id LIMIT 5");
    expect(rows).toEqual([
      { name: "ÉMILE", name_key: "émile", revision: 1 },
      { name: "Straße", name_key: "strasse", revision: 1 },
      { name: "ΚΟΣΜΟΣ", name_key: "κοσμοσ", revision: 1 },
      { name: "rex", name_key: "rex", revision: 1 },
      { name: "Pet 0", name_key: "pet 0", revision: 1 },
    ]);
    expect((await pool.query("SELECT count(*)::int AS n FROM pets WHERE name_key IS NULL")).rows[0].n).toBe(0);
    // Folding is no change of a pet: no event, no new revision.
    expect((await pool.query("SELECT count(*)::int AS n FROM events")).rows[0].n).toBe(eventsBefore);
    expect(await indexesOf(pool)).toEqual(expect.arrayContaining(["pets_name_key_id", "pets_name_key_trgm", "pets_status_category_name_key_id"]));

    const indexes = await indexesOf(pool);
    expect(await migrate(pool)).toEqual([]);
    expect(await indexesOf(pool)).toEqual(indexes);
  });

  describe("where pg_trgm cannot be created", () => {
    let db: string;
    let limited: string;
    let superuser: pg.Pool;

    beforeAll(async () => {
      ({ db } = await freshDatabase());
      superuser = poolFor(db);
      // A role that may create tables in the schema but not extensions in the database, as a
      // self-hoster's application role often is.
      const role = `petstore_limited_${new URL(db).pathname.slice(1)}`;
      await superuser.query(`CREATE ROLE ${role} LOGIN`);
      await superuser.query(`GRANT CREATE ON SCHEMA public TO ${role}`);
      const url = new URL(db);
      url.username = role;
      limited = url.href;
    });

    it("starts, warns once per start, and answers searches all the same", async () => {
      const warnings: string[] = [];
      const store = await openPostgresStore(limited, { warn: (message) => warnings.push(message) });
      try {
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toMatch(/^the PostgreSQL extension pg_trgm cannot be used \(permission denied.*\): GET \/v1\/pets\?q= reads every pet's name/);
        await store.pets.create({ name: "Émile", categoryId: 1, status: "available" });
        await store.pets.create({ name: "Rex", categoryId: 1, status: "available" });
        expect((await store.pets.list({ search: "ÉMI", limit: 10 })).pets.map((pet) => pet.name)).toEqual(["Émile"]);
        expect(await indexesOf(superuser)).not.toContain("pets_name_key_trgm");
      } finally {
        await store.close();
      }
    });

    it("adds the index at the next start once the extension is there", async () => {
      await superuser.query("CREATE EXTENSION pg_trgm");
      const warnings: string[] = [];
      const store = await openPostgresStore(limited, { warn: (message) => warnings.push(message) });
      try {
        expect(warnings).toEqual([]);
        expect(await indexesOf(superuser)).toContain("pets_name_key_trgm");
        expect((await store.pets.list({ search: "rex", limit: 10 })).pets.map((pet) => pet.name)).toEqual(["Rex"]);
      } finally {
        await store.close();
      }
    });
  });
});
