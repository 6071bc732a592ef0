// How q and sort=name see a name: the fold (NFC, full case folding) and the order of folded names.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codePointSortKey, compareFolded, foldName } from "../../src/contract/name-search.js";

// Any Unicode text, with more of the letters whose case or normal form is tricky.
const TRICKY = ["ß", "ẞ", "Σ", "σ", "ς", "İ", "ı", "ǅ", "ΐ", "ﬁ", "K", "Å", "e\u0301", "ᾼ", "ŉ", "😀", "\ue000"];
const textArb = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.array(fc.oneof(fc.constantFrom(...TRICKY), fc.string({ unit: "grapheme-ascii", maxLength: 2 })), { maxLength: 6 }).map((parts) => parts.join("")),
);

describe("foldName", () => {
  it.each([
    ["ÉMILE", "émile"],
    ["E\u0301MILE", "émile"],
    ["Straße", "strasse"],
    ["STRAẞE", "strasse"],
    ["ΚΟΣΜΟΣ", "κοσμοσ"],
    ["κόσμος", "κόσμοσ"],
    ["ﬁdo", "fido"],
    ["ǅemo", "ǆemo"],
    ["Rex", "rex"],
  ])("folds %j to %j", (name, folded) => {
    expect(foldName(name)).toBe(folded);
  });

  it("folds a name and its upper, lower and decomposed forms alike, and a folded name to itself", () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const folded = foldName(text);
        expect(foldName(folded)).toBe(folded);
        expect(foldName(text.toUpperCase())).toBe(folded);
        expect(foldName(text.toLowerCase())).toBe(folded);
        expect(foldName(text.normalize("NFD"))).toBe(folded);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("compareFolded", () => {
  it("orders by code point, as PostgreSQL's C collation orders UTF-8 bytes", () => {
    // Lone surrogates have no UTF-8 form: PostgreSQL never holds them.
    const wellFormed = textArb.filter((text) => !/\p{Cs}/u.test(text));
    fc.assert(
      fc.property(wellFormed, wellFormed, (a, b) => {
        expect(Math.sign(compareFolded(a, b))).toBe(Buffer.compare(Buffer.from(a), Buffer.from(b)));
      }),
      { numRuns: 2_000 },
    );
    // Where UTF-16 order differs: U+E000 is before U+1F600 by code point, after it by UTF-16 unit.
    expect(compareFolded("\ue000", "😀")).toBeLessThan(0);
    expect("\ue000" < "😀").toBe(false);
  });
});

describe("codePointSortKey", () => {
  it("sorts with < as compareFolded sorts the names themselves", () => {
    fc.assert(
      fc.property(textArb, textArb, (a, b) => {
        const [x, y] = [codePointSortKey(a), codePointSortKey(b)];
        expect(Math.sign(x < y ? -1 : x > y ? 1 : 0)).toBe(Math.sign(compareFolded(a, b)));
      }),
      { numRuns: 2_000 },
    );
  });
});
