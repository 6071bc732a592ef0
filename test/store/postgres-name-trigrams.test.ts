// Migration 12: pet_name_trigrams holds every three-character window of each folded name, for an
// existing database and through every way pets are written; a q of three characters reads its
// page from it, whatever plan PostgreSQL makes, instead of walking the names in id order.
// Needs PostgreSQL: vitest project "postgres" only.
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { foldName } from "../../src/contract/name-search.js";
import { MIGRATIONS, migrate } from "../../src/store/postgres/migrations.js";
import { listQuery } from "../../src/store/postgres/pet-list-query.js";
import { freshDatabase } from "../helpers/test-backend.js";

const pools: pg.Pool[] = [];
const poolAt = (db: string, options: { max?: number; statement_timeout?: number } = {}) => {
  const pool = new pg.Pool({ connectionString: db, max: options.max ?? 2, statement_timeout: options.statement_timeout });
  pools.push(pool);
  return pool;
};
const poolFor = async (options: { max?: number } = {}) => poolAt((await freshDatabase()).db, options);
afterAll(() => Promise.all(pools.map((pool) => pool.end())));

/** What the table should hold for these pets: computed here, by code points, from petstore's own fold. */
function windowsOf(pets: { id: number; name: string }[]): string[] {
  const rows = new Set<string>();
  for (const { id, name } of pets) {
    const points = Array.from(foldName(name));
    for (let i = 0; i + 3 <= points.length; i++) rows.add(`${points.slice(i, i + 3).join("")}|${id}`);
  }
  return [...rows].sort();
}

async function stored(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ row: string }>("SELECT trigram || '|' || pet_id AS row FROM pet_name_trigrams");
  return rows.map((row) => row.row).sort();
}

async function petsOf(pool: pg.Pool): Promise<{ id: number; name: string }[]> {
  const { rows } = await pool.query<{ id: string; name: string }>("SELECT id, name FROM pets ORDER BY id");
  return rows.map((row) => ({ id: Number(row.id), name: row.name }));
}

const insertPets = (pool: pg.Pool, names: string[]) =>
  pool.query("INSERT INTO pets (name, category_id, status, name_key) SELECT n, 1, 'available', k FROM unnest($1::text[], $2::text[]) AS u (n, k)", [
    names,
    names.map(foldName),
  ]);

describe("migration 12: pet_name_trigrams", () => {
  it("is filled from the names of an existing database, and a second run changes nothing", async () => {
    const pool = await poolFor();
    expect(await migrate(pool, { migrations: MIGRATIONS.filter((migration) => migration.version <= 11) })).toHaveLength(11);
    // Repeated windows (bababa), names shorter than three, folds that change the length (ß, ﬁ), and outside the BMP.
    await insertPets(pool, ["Bababa", "Rex", "Al", "X", "Straße", "ﬁfi", "ΚΟΣΜΟΣ", "😀ab😀", "Émile", "Pet 7"]);
    expect(await migrate(pool)).toEqual([12]);
    const pets = await petsOf(pool);
    expect(await stored(pool)).toEqual(windowsOf(pets));
    expect(await stored(pool)).toEqual(expect.arrayContaining([`bab|${pets[0]!.id}`, `aba|${pets[0]!.id}`, `sse|${pets[4]!.id}`, `😀ab|${pets[7]!.id}`]));
    expect(await migrate(pool)).toEqual([]);
    expect(await stored(pool)).toEqual(windowsOf(pets));
  });

  it("runs at a start whose pool times requests out sooner than the migration takes", async () => {
    // The server's pool has a statement timeout meant for requests; filling the table for a large
    // database takes longer than that, once.
    const { db } = await freshDatabase();
    const pool = poolAt(db);
    await migrate(pool, { migrations: MIGRATIONS.filter((migration) => migration.version <= 11) });
    await insertPets(pool, Array.from({ length: 50_000 }, (_, i) => `Pet named ${i}`));
    const timed = poolAt(db, { statement_timeout: 50 });
    expect(await migrate(timed)).toEqual([12]);
    expect((await pool.query("SELECT count(*)::int AS n FROM pet_name_trigrams WHERE trigram = 'ed '")).rows[0].n).toBe(50_000);
    // Outside the migration the pool's timeout holds as before.
    await expect(timed.query("SELECT pg_sleep(0.2)")).rejects.toThrow(/statement timeout/);
  });

  it("follows creates, renames, other changes, deletes and TRUNCATE", async () => {
    const pool = await poolFor();
    await migrate(pool);
    await insertPets(pool, ["Bella", "Max", "Luna", "Bellatrix"]);
    expect(await stored(pool)).toEqual(windowsOf(await petsOf(pool)));
    const [bella, max] = await petsOf(pool);
    await pool.query("UPDATE pets SET name = 'Maxime', name_key = 'maxime', revision = revision + 1 WHERE id = $1", [max!.id]);
    await pool.query("UPDATE pets SET status = 'sold', revision = revision + 1 WHERE id = $1", [bella!.id]);
    await pool.query("UPDATE pets SET category_id = 2");
    expect(await stored(pool)).toEqual(windowsOf(await petsOf(pool)));
    await pool.query("DELETE FROM pets WHERE id = $1", [bella!.id]);
    await pool.query("DELETE FROM pets WHERE name LIKE 'Lu%' OR name LIKE 'Max%'");
    expect(await stored(pool)).toEqual(windowsOf(await petsOf(pool)));
    await pool.query("TRUNCATE pets CASCADE");
    expect(await stored(pool)).toEqual([]);
  });
});

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
}

/** Every row a plan's scans looked at, kept or filtered out. */
function rowsRead(node: PlanNode): number {
  const own = node["Node Type"].includes("Scan") ? (node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0)) * node["Actual Loops"] : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child), 0);
}

function relationsOf(node: PlanNode): string[] {
  return [...(node["Relation Name"] ? [node["Relation Name"]] : []), ...(node.Plans ?? []).flatMap(relationsOf)];
}

describe("a q of three characters over 20,000 pets, 1% of them holding it", () => {
  const PAGE = 20;

  it("reads about a page of rows per page, in each order and filter, with or without statistics, custom or generic plan", async () => {
    const pool = await poolFor({ max: 1 });
    await migrate(pool);
    const names = Array.from({ length: 20_000 }, (_, i) => (i % 100 === 7 ? `Bella ${i}` : `Pet ${i}`));
    await insertPets(pool, names);
    const client = await pool.connect();
    try {
      // Fresh tables have no statistics: the plan made then is the one a just-imported database gets.
      for (const analysed of [false, true]) {
        if (analysed) await client.query("ANALYZE pets; ANALYZE pet_name_trigrams");
        for (const mode of ["force_custom_plan", "force_generic_plan"]) {
          await client.query(`SET plan_cache_mode = ${mode}`);
          for (const query of [
            { search: "ELL", sort: "id" as const, limit: PAGE, afterId: 10_000 },
            { search: "ell", sort: "-id" as const, limit: PAGE, afterId: 10_000 },
            { search: "ell", sort: "id" as const, limit: PAGE, status: "available" as const, categoryId: 1 },
          ]) {
            const { text, values } = listQuery(query, PAGE + 1);
            await client.query(`PREPARE page AS ${text}`);
            // EXPLAIN takes no bound parameters: the values are written in, as literals of the statement's types.
            const literals = values.map((value) => client.escapeLiteral(String(value))).join(", ");
            const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE page(${literals})`);
            await client.query("DEALLOCATE page");
            const plan = rows[0]!["QUERY PLAN"][0].Plan;
            const label = JSON.stringify({ analysed, mode, query });
            expect(plan["Actual Rows"], label).toBe(PAGE + 1);
            expect(relationsOf(plan), label).toContain("pet_name_trigrams");
            // The page from the trigram's rows and the pets they name, not the hundred names per match of an id walk.
            expect(rowsRead(plan), label).toBeLessThanOrEqual(4 * (PAGE + 1));
          }
        }
      }
    } finally {
      client.release();
    }
  });
});
