// The file engine's search and name order (PetIndex: trigrams, lists in name order) against the
// plainest reading of the rules: filter every pet, sort, take the page after the cursor.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareFolded, foldName, PET_SORTS, type PetSort } from "../../src/contract/name-search.js";
import { PET_STATUSES, type Pet, type PetStatus } from "../../src/contract/values.js";
import type { ListPetsQuery } from "../../src/store/pet-store.js";
import { PetIndex } from "../../src/store/indexed/pet-index.js";

/** The page the rules describe, computed from every pet with no index at all. */
function expectedPage(pets: Iterable<Pet>, query: ListPetsQuery): { ids: number[]; hasMore: boolean } {
  const text = query.search === undefined ? undefined : foldName(query.search);
  const sort = query.sort ?? "id";
  const byName = sort === "name" || sort === "-name";
  const order = (a: Pet, b: Pet) => (byName ? compareFolded(foldName(a.name), foldName(b.name)) : 0) || a.id - b.id;
  const place = (pet: Pet) =>
    (byName ? compareFolded(foldName(pet.name), query.afterName ?? "") : 0) || pet.id - (query.afterId ?? 0);
  const descending = sort.startsWith("-");
  const matching = [...pets]
    .filter((pet) => query.status === undefined || pet.status === query.status)
    .filter((pet) => query.categoryId === undefined || pet.categoryId === query.categoryId)
    .filter((pet) => text === undefined || foldName(pet.name).includes(text))
    .filter((pet) => query.afterId === undefined || (descending ? place(pet) < 0 : place(pet) > 0))
    .sort(descending ? (a, b) => order(b, a) : order);
  return { ids: matching.slice(0, query.limit).map((pet) => pet.id), hasMore: matching.length > query.limit };
}

// Few letters, so that texts often match; case, accents, final sigma and ß, so that folding matters.
const NAME_PARTS = ["a", "b", "ab", "A", "B", "é", "É", "e\u0301", "ß", "SS", "σ", "Σ", "ς", " ", "😀", "\uffff", "ı", "I"];
const nameArb = fc.array(fc.constantFrom(...NAME_PARTS), { minLength: 1, maxLength: 6 }).map((parts) => parts.join(""));
const statusArb = fc.constantFrom(...PET_STATUSES);
const categoryArb = fc.integer({ min: 1, max: 3 });

type Change =
  | { kind: "add"; name: string; status: PetStatus; categoryId: number }
  | { kind: "update"; pick: number; name?: string; status?: PetStatus; categoryId?: number }
  | { kind: "remove"; pick: number };

const changeArb: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant("add" as const), name: nameArb, status: statusArb, categoryId: categoryArb }),
  fc.record(
    { kind: fc.constant("update" as const), pick: fc.nat(), name: nameArb, status: statusArb, categoryId: categoryArb },
    { requiredKeys: ["kind", "pick"] },
  ),
  fc.record({ kind: fc.constant("remove" as const), pick: fc.nat() }),
);

const queryArb = fc.record(
  {
    status: statusArb,
    categoryId: categoryArb,
    search: fc.array(fc.constantFrom(...NAME_PARTS, "abab", "SSA", "x"), { minLength: 1, maxLength: 3 }).map((parts) => parts.join("")),
    sort: fc.constantFrom(...PET_SORTS),
    limit: fc.integer({ min: 1, max: 5 }),
  },
  { requiredKeys: ["limit"] },
);

/** Applies `change` to the index and to the plain map that stands for the truth. */
function apply(index: PetIndex, truth: Map<number, Pet>, change: Change, nextId: () => number): void {
  const ids = [...truth.keys()];
  if (change.kind === "add") {
    const pet = Object.freeze({ id: nextId(), name: change.name, categoryId: change.categoryId, status: change.status });
    truth.set(pet.id, pet);
    index.put([{ pet, revision: 1 }]);
    return;
  }
  const id = ids[change.pick % Math.max(1, ids.length)];
  if (id === undefined) return;
  if (change.kind === "remove") {
    truth.delete(id);
    index.remove([id]);
    return;
  }
  const { pick: _pick, kind: _kind, ...patch } = change;
  const pet = Object.freeze({ ...truth.get(id)!, ...patch });
  truth.set(id, pet);
  index.put([{ pet, revision: 2 }]);
}

/** Every page of `query`, following the last pet of each as the cursor does. */
function allPages(index: PetIndex, query: ListPetsQuery): number[][] {
  const pages: number[][] = [];
  let after: Pick<ListPetsQuery, "afterId" | "afterName"> = {};
  for (let guard = 0; guard < 10_000; guard++) {
    const page = index.list({ ...query, ...after });
    pages.push(page.pets.map((pet) => pet.id));
    const last = page.pets.at(-1);
    if (!page.hasMore || !last) return pages;
    after = { afterId: last.id, afterName: foldName(last.name) };
  }
  throw new Error("no last page");
}

describe("PetIndex search and sort", () => {
  it("gives every page the rules give, through adds, renames, moves and removals", () => {
    fc.assert(
      fc.property(
        fc.array(changeArb, { minLength: 1, maxLength: 40 }),
        fc.array(queryArb, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (changes, queries, loadFirst) => {
          const truth = new Map<number, Pet>();
          let id = 0;
          const index = new PetIndex();
          if (loadFirst) {
            // A start over a file: many pets at once, the path that builds each list in one go.
            const seeded = Array.from({ length: 1_000 }, (_, i) => Object.freeze({ id: ++id, name: NAME_PARTS[i % NAME_PARTS.length]! + NAME_PARTS[(i * 7) % NAME_PARTS.length]!, categoryId: 1 + (i % 3), status: PET_STATUSES[i % 3]! }));
            for (const pet of seeded) truth.set(pet.id, pet);
            index.put(seeded.map((pet) => ({ pet, revision: 1 })));
          }
          for (const change of changes) apply(index, truth, change, () => ++id);
          for (const query of queries) {
            const pages = allPages(index, query);
            const all = expectedPage(truth.values(), { ...query, limit: Number.MAX_SAFE_INTEGER }).ids;
            expect(pages.flat()).toEqual(all);
            expect(index.list(query).pets.map((pet) => pet.id)).toEqual(expectedPage(truth.values(), query).ids);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("a copy gives every page the rules give, and changes to the copy or the original never reach the other", () => {
    fc.assert(
      fc.property(
        fc.array(changeArb, { minLength: 1, maxLength: 30 }),
        fc.array(changeArb, { maxLength: 30 }),
        fc.array(changeArb, { maxLength: 10 }),
        fc.array(queryArb, { minLength: 1, maxLength: 4 }),
        (before, onCopy, onOriginal, queries) => {
          const truth = new Map<number, Pet>();
          let id = 0;
          const original = new PetIndex();
          for (const change of before) apply(original, truth, change, () => ++id);
          const copy = original.copy();
          expect(copy.version).not.toBe(original.version);
          const copyTruth = new Map(truth);
          let copyId = id;
          for (const change of onCopy) apply(copy, copyTruth, change, () => ++copyId);
          for (const change of onOriginal) apply(original, truth, change, () => ++id);
          for (const [index, pets] of [[original, truth], [copy, copyTruth]] as const) {
            expect(index.size).toBe(pets.size);
            for (const query of queries) expect(allPages(index, query).flat()).toEqual(expectedPage(pets.values(), { ...query, limit: Number.MAX_SAFE_INTEGER }).ids);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("pages from any place, with hasMore exact, in each order", () => {
    const index = new PetIndex();
    const names = ["Rex", "rex", "REXA", "Émile", "emile", "ÉMILE", "Straße", "STRASSE", "Όσος", "a😀", "a\ue000", "zz"];
    const pets = names.map((name, i) => Object.freeze({ id: i + 1, name, categoryId: 1 + (i % 2), status: PET_STATUSES[i % 3]! }));
    index.put(pets.map((pet) => ({ pet, revision: 1 })));
    for (const sort of PET_SORTS) {
      for (const search of [undefined, "rex", "ÉMILE", "ss", "ΟΣ", "😀", "e"]) {
        for (const after of [undefined, ...pets]) {
          const query: ListPetsQuery = { sort, search, limit: 2, afterId: after?.id, afterName: after && foldName(after.name) };
          const page = index.list(query);
          const expected = expectedPage(pets, query);
          expect({ ids: page.pets.map((pet) => pet.id), hasMore: page.hasMore }, JSON.stringify(query)).toEqual(expected);
        }
      }
    }
  });

  it("finds and orders pets whose ids are past 2^32 as well as small ones", () => {
    const index = new PetIndex();
    const ids = [1, 2, 2 ** 32 + 7, Number.MAX_SAFE_INTEGER];
    index.put(ids.map((id, i) => ({ pet: Object.freeze({ id, name: ["Rex", "Max", "rexy", "REX"][i]!, categoryId: 1, status: "sold" as const }), revision: 1 })));
    expect(index.list({ search: "rex", limit: 10 }).pets.map((pet) => pet.id)).toEqual([1, 2 ** 32 + 7, Number.MAX_SAFE_INTEGER]);
    expect(index.list({ search: "rex", sort: "-id", limit: 10 }).pets.map((pet) => pet.id)).toEqual([Number.MAX_SAFE_INTEGER, 2 ** 32 + 7, 1]);
    expect(index.list({ sort: "name", status: "sold", limit: 10 }).pets.map((pet) => pet.id)).toEqual([2, 1, Number.MAX_SAFE_INTEGER, 2 ** 32 + 7]);
    index.remove([2 ** 32 + 7]);
    expect(index.list({ search: "rexy", limit: 10 }).pets).toEqual([]);
  });

  it("finds by folded text: ÉMILE finds émile, STRASSE finds Straße, ΟΣ finds the σ inside ΚΟΣΜΟΣ", () => {
    const index = new PetIndex();
    const names = ["émile", "Straße", "ΚΟΣΜΟΣ", "Kosmos", "e\u0301mile"];
    index.put(names.map((name, i) => ({ pet: Object.freeze({ id: i + 1, name, categoryId: 1, status: "available" as const }), revision: 1 })));
    const find = (search: string, sort: PetSort = "id") => index.list({ search, sort, limit: 10 }).pets.map((pet) => pet.name);
    expect(find("ÉMILE")).toEqual(["émile", "e\u0301mile"]);
    expect(find("strasse")).toEqual(["Straße"]);
    expect(find("STRAẞE")).toEqual(["Straße"]);
    expect(find("ΟΣ")).toEqual(["ΚΟΣΜΟΣ"]);
    expect(find("ος")).toEqual(["ΚΟΣΜΟΣ"]);
    expect(find("kosmos", "-name")).toEqual(["Kosmos"]);
  });
});

describe("PetIndex pages while pets change between them", () => {
  // What a client walking the Link headers is promised (docs/api.md): every pet that exists from
  // the first page to the last, keeps what the listing filters and orders by, appears exactly
  // once; the pages follow the order as each was read; only a pet whose folded name changed (in
  // a name order) may appear twice, once under each name.
  it("keeps each pet that existed throughout exactly once, in order, whatever else changes", () => {
    const pageArb = fc.record({ changes: fc.array(changeArb, { maxLength: 4 }) });
    fc.assert(
      fc.property(
        fc.array(fc.record({ name: nameArb, status: statusArb, categoryId: categoryArb }), { minLength: 1, maxLength: 30 }),
        fc.array(pageArb, { minLength: 1, maxLength: 12 }),
        fc.record({ sort: fc.constantFrom(...PET_SORTS), status: fc.option(statusArb, { nil: undefined }), search: fc.option(fc.constantFrom("a", "b", "ss", "É"), { nil: undefined }), limit: fc.integer({ min: 1, max: 4 }) }),
        (seed, between, query) => {
          const truth = new Map<number, Pet>();
          const index = new PetIndex();
          let id = 0;
          for (const pet of seed) apply(index, truth, { kind: "add", ...pet }, () => ++id);
          const first = new Map(truth);
          const changed = new Set<number>();
          const seen: { pet: Pet; key: string }[] = [];
          let after: Pick<ListPetsQuery, "afterId" | "afterName"> = {};
          // True once a page said nothing follows: only then must every pet have been seen.
          let walkedToEnd = false;
          for (const { changes } of [{ changes: [] as Change[] }, ...between]) {
            for (const change of changes) {
              const before = new Map(truth);
              apply(index, truth, change, () => ++id);
              for (const [petId, pet] of before) if (truth.get(petId) !== pet) changed.add(petId);
            }
            const page = index.list({ ...query, ...after });
            seen.push(...page.pets.map((pet) => ({ pet, key: foldName(pet.name) })));
            const last = page.pets.at(-1);
            walkedToEnd = !page.hasMore || !last;
            if (walkedToEnd || !last) break;
            after = { afterId: last.id, afterName: foldName(last.name) };
          }
          const byName = query.sort === "name" || query.sort === "-name";
          const sign = query.sort.startsWith("-") ? -1 : 1;
          // In order as read: each pet after the one before in the listing's order.
          for (let i = 1; i < seen.length; i++) {
            const [a, b] = [seen[i - 1]!, seen[i]!];
            expect(sign * ((byName ? compareFolded(a.key, b.key) : 0) || a.pet.id - b.pet.id)).toBeLessThan(0);
          }
          const count = (petId: number) => seen.filter((entry) => entry.pet.id === petId).length;
          const text = query.search === undefined ? undefined : foldName(query.search);
          const listed = (pet: Pet) => (query.status === undefined || pet.status === query.status) && (text === undefined || foldName(pet.name).includes(text));
          for (const [petId, pet] of first) {
            const now = truth.get(petId);
            if (now && !changed.has(petId) && listed(pet) && walkedToEnd) expect(count(petId)).toBe(1);
            if (count(petId) > 1) expect(byName && changed.has(petId)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
