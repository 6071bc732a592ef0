// How listPets' `q` and `sort=name` see a name, defined once for both engines: the file engine
// folds in its index, and PostgreSQL stores the same fold, computed here, in pets.name_key.
// Kept free of the schema library, like constants.ts.

/** The orders of listPets; `-` reverses. `name` orders by the folded name, then by id. */
export const PET_SORTS = ["id", "-id", "name", "-name"] as const;
export type PetSort = (typeof PET_SORTS)[number];
export const DEFAULT_PET_SORT: PetSort = "id";

/** The longest `q`, in characters (code points), as long as the longest name. */
export const SEARCH_MAX_LENGTH = 200;

export function isPetSort(value: string): value is PetSort {
  return (PET_SORTS as readonly string[]).includes(value);
}

// Any unit above 0x7f: a name without one is ASCII.
const NOT_ASCII = /\P{ASCII}/u;

/**
 * A name as search and sort compare it: NFC, then full case folding ("ÉMILE" and "émile" fold
 * alike, "STRASSE" and "Straße" both to "strasse"). JavaScript has no case folding of its own:
 * lower(upper(lower(text))) gives full folding's classes (ẞ and ß to "ss", ﬁ to "fi", ſ to "s"),
 * and final sigma is then made σ, as folding does, so "ΟΣ" is found inside "ΚΟΣΜΟΣ". One known
 * difference from Unicode's table: dotless ı folds to i here.
 *
 * @example foldName("ÉMILE") === foldName("émile") // "émile"
 */
export function foldName(text: string): string {
  // Nearly every name: ASCII is NFC already, and only A-Z change.
  if (!NOT_ASCII.test(text)) return text.toLowerCase();
  const folded = text.normalize("NFC").toLowerCase().toUpperCase().toLowerCase().normalize("NFC");
  return folded.includes("ς") ? folded.replaceAll("ς", "σ") : folded;
}

/**
 * Orders folded names by code point, as PostgreSQL's "C" collation orders UTF-8 (byte order is
 * code point order). `<` compares UTF-16 units, which puts U+10000 and up before U+E000-U+FFFF.
 */
export function compareFolded(a: string, b: string): number {
  if (a === b) return 0;
  const shorter = Math.min(a.length, b.length);
  let i = 0;
  while (i < shorter && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === shorter) return a.length - b.length;
  return codePointRank(a.charCodeAt(i)) - codePointRank(b.charCodeAt(i));
}

const HIGH_UNITS = /[\ud800-\uffff]/;

/**
 * A string whose UTF-16 order (`<`) is `folded`'s code point order, for sorting many names with
 * the engine's own comparison: `folded` itself, unless it has units from U+D800 up.
 */
export function codePointSortKey(folded: string): string {
  if (!HIGH_UNITS.test(folded)) return folded;
  const ranks = new Array<number>(folded.length);
  for (let i = 0; i < folded.length; i++) ranks[i] = codePointRank(folded.charCodeAt(i));
  return String.fromCharCode(...ranks);
}

/** Surrogates (astral code points) after every other unit, keeping their order among themselves: 0 to 0xffff still. */
function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit < 0xe000 ? unit + 0x2000 : unit - 0x800;
}
