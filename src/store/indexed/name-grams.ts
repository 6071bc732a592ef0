import { ChunkedList } from "./chunked-list.js";

// Stands in for the missing characters of a name shorter than three (never in a folded name's
// trigram otherwise, and any match it suggests is checked against the name anyway).
const PAD = "\uffff";
const byId = (a: number, b: number) => a - b;

/**
 * A trigram as a map key: three units below 1024 (Latin, Greek, Cyrillic and more) packed in one
 * small integer, which costs no string to make or hash (a million names have some 8 million
 * trigrams); any other trigram as its string.
 */
type Gram = number | string;

function gramAt(text: string, i: number): Gram {
  const a = text.charCodeAt(i);
  const b = text.charCodeAt(i + 1);
  const c = text.charCodeAt(i + 2);
  return (a | b | c) < 1024 ? (a << 20) | (b << 10) | c : text.slice(i, i + 3);
}

function gramText(gram: Gram): string {
  return typeof gram === "string" ? gram : String.fromCharCode(gram >> 20, (gram >> 10) & 1023, gram & 1023);
}

/**
 * The trigrams of every folded name, each with the ids of the pets whose name has it, in id
 * order. Any text of three characters or more is inside a name only if each of its trigrams is,
 * so the pets of its rarest trigram hold every match; a shorter text is inside some trigram of
 * each name it is in, so the pets of the trigrams that contain it do. Candidates only: a caller
 * checks each one against the name (with trigram "abc" and "bcd", "abcxbcd" is no match for "abcd").
 */
export class NameGrams {
  #ids = new Map<Gram, ChunkedList>();
  // The trigrams that contain each text of one or two characters, for the texts too short to
  // have a trigram of their own.
  #within = new Map<string, Set<Gram>>();
  // Once copied, both sides share every list and set, and each copies one before its first change
  // to it: these name the ones it has made its own since. Never copied: it owns them all.
  #ownIds: Set<Gram> | undefined;
  #ownParts: Set<string> | undefined;

  /** An independent copy, at the cost of two maps: what a new index starts from instead of reading every name again. */
  copy(): NameGrams {
    const grams = new NameGrams();
    grams.#ids = new Map(this.#ids);
    grams.#within = new Map(this.#within);
    grams.#ownIds = new Set();
    grams.#ownParts = new Set();
    this.#ownIds = new Set();
    this.#ownParts = new Set();
    return grams;
  }

  /** Adds the pet under each trigram of its folded name (a trigram that repeats, once). */
  add(id: number, folded: string): void {
    if (folded.length < 3) return this.#listOf(padded(folded)).insert(id);
    for (let i = 0; i + 3 <= folded.length; i++) this.#listOf(gramAt(folded, i)).insert(id);
  }

  /** As add, for ids given in ascending order (a load): each id is appended, not placed. */
  push(id: number, folded: string): void {
    if (folded.length < 3) return this.#listOf(padded(folded)).push(id);
    for (let i = 0; i + 3 <= folded.length; i++) this.#listOf(gramAt(folded, i)).push(id);
  }

  remove(id: number, folded: string): void {
    if (folded.length < 3) return this.#removeFrom(padded(folded), id);
    for (let i = 0; i + 3 <= folded.length; i++) this.#removeFrom(gramAt(folded, i), id);
  }

  /**
   * The lists of ids that hold every pet whose folded name contains `text` (itself folded): one
   * list for three characters or more (none when a trigram is unknown), the lists of every
   * trigram around it for fewer. Ids may repeat across lists.
   */
  candidates(text: string): ChunkedList[] {
    if (text.length < 3) return [...(this.#within.get(text) ?? [])].map((gram) => this.#ids.get(gram)!);
    let rarest: ChunkedList | undefined;
    for (let i = 0; i + 3 <= text.length; i++) {
      const ids = this.#ids.get(gramAt(text, i));
      if (!ids) return [];
      if (!rarest || ids.size < rarest.size) rarest = ids;
    }
    return [rarest!];
  }

  /** The list of `gram`, made first if new, to change. */
  #listOf(gram: Gram): ChunkedList {
    const ids = this.#ownList(gram);
    if (ids) return ids;
    const made = new ChunkedList(byId);
    this.#ids.set(gram, made);
    this.#ownIds?.add(gram);
    for (const part of partsOf(gram)) {
      let grams = this.#ownSet(part);
      if (!grams) this.#within.set(part, (grams = new Set()));
      this.#ownParts?.add(part);
      grams.add(gram);
    }
    return made;
  }

  #removeFrom(gram: Gram, id: number): void {
    const ids = this.#ownList(gram);
    if (!ids?.remove(id) || ids.size > 0) return;
    this.#ids.delete(gram);
    for (const part of partsOf(gram)) {
      const grams = this.#ownSet(part);
      grams?.delete(gram);
      if (grams?.size === 0) this.#within.delete(part);
    }
  }

  /** The list of `gram` (if any), copied first when a copy of this index still shares it. */
  #ownList(gram: Gram): ChunkedList | undefined {
    const ids = this.#ids.get(gram);
    if (!ids || !this.#ownIds || this.#ownIds.has(gram)) return ids;
    const own = ids.copy();
    this.#ids.set(gram, own);
    this.#ownIds.add(gram);
    return own;
  }

  /** The trigrams within `part` (if any), copied first when a copy of this index still shares them. */
  #ownSet(part: string): Set<Gram> | undefined {
    const grams = this.#within.get(part);
    if (!grams || !this.#ownParts || this.#ownParts.has(part)) return grams;
    const own = new Set(grams);
    this.#within.set(part, own);
    this.#ownParts.add(part);
    return own;
  }
}

const padded = (folded: string) => folded.padEnd(3, PAD);

/** The texts of one and two characters inside a trigram. */
function partsOf(gram: Gram): string[] {
  const text = gramText(gram);
  return [text[0]!, text[1]!, text[2]!, text.slice(0, 2), text.slice(1)];
}
