// Both engines, the same answers: the same pets and the same questions (texts, filters, orders,
// cursors) to the file engine's index and to PostgreSQL, as a property test. Needs PostgreSQL:
// vitest project "postgres" only.
import fc from "fast-check";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { PET_SORTS } from "../../src/contract/name-search.js";
import { PET_STATUSES } from "../../src/contract/values.js";
import { openMemoryStore } from "../../src/store/memory/open-memory-store.js";
import { openPostgresStore } from "../../src/store/postgres/open-postgres-store.js";
import { freshDatabase } from "../helpers/test-backend.js";
import { allPages } from "./support.js";

// Texts PostgreSQL can hold (no NUL, no lone surrogate), with more of the letters where folding matters.
const TRICKY = ["ß", "ẞ", "SS", "Σ", "σ", "ς", "İ", "ı", "i", "ǅ", "ﬁ", "É", "é", "e\u0301", "😀", "\ue000", "%", "_", "\\", " "];
const pgText = (maxLength: number) =>
  fc
    .array(fc.oneof(fc.constantFrom(...TRICKY), fc.string({ unit: "grapheme", minLength: 1, maxLength: 2 }), fc.constantFrom("a", "b", "A", "ab")), { minLength: 1, maxLength })
    .map((parts) => parts.join(""))
    .filter((text) => !text.includes("\0") && !/\p{Cs}/u.test(text));

describe("PostgreSQL against the file engine", () => {
  it("gives the same pages for the same pets and questions: texts, filters, orders, cursors", async () => {
    const { db } = await freshDatabase();
    const postgres = await openPostgresStore(db, { warn: () => undefined });
    const admin = new pg.Client({ connectionString: db });
    await admin.connect();
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.record({ name: pgText(5), status: fc.constantFrom(...PET_STATUSES), categoryId: fc.integer({ min: 1, max: 2 }) }), { minLength: 1, maxLength: 25 }),
          fc.array(fc.record({ search: fc.option(pgText(3), { nil: undefined }), sort: fc.constantFrom(...PET_SORTS), status: fc.option(fc.constantFrom(...PET_STATUSES), { nil: undefined }), limit: fc.integer({ min: 1, max: 4 }) }), { minLength: 1, maxLength: 5 }),
          fc.nat(),
          async (pets, queries, pick) => {
            await admin.query("TRUNCATE pets RESTART IDENTITY CASCADE");
            const file = await openMemoryStore();
            for (const pet of pets) await Promise.all([file.pets.create(pet), postgres.pets.create(pet)]);
            // A rename too, so that the stored folded name is the one of the new name.
            const renamed = { name: pets[pick % pets.length]!.name.toUpperCase() || "X" };
            await Promise.all([file.pets.update(1 + (pick % pets.length), renamed), postgres.pets.update(1 + (pick % pets.length), renamed)]);
            for (const query of queries) {
              // A text from a name, cased otherwise, as well as the one drawn.
              const from = pets[pick % pets.length]!.name;
              for (const search of [query.search, Array.from(from).slice(0, 2).join("").toUpperCase()]) {
                const asked = { ...query, search };
                expect(await allPages(postgres.pets, asked), JSON.stringify(asked)).toEqual(await allPages(file.pets, asked));
              }
            }
            await file.close();
          },
        ),
        { numRuns: 60 },
      );
    } finally {
      await admin.end();
      await postgres.close();
    }
  });
});
