import { ChunkedList } from "./chunked-list.js";

// Stands in for the missing characters of a name shorter than three (never in a folded name's
// trigram otherwise, and any match it suggests is checked against the name anyway).
const PAD = "\uffff";
const byId = (a: number, b: number) => a - b;

/**
 * The trigrams of every folded name, each with the ids of the pets whose name has it, in id
 * order. Any text of three characters or more is inside a name only if each of its trigrams is,
 * so the pets of its rarest trigram hold every match; a shorter text is inside some trigram of
 * each name it is in, so the pets of the trigrams that contain it do. Candidates only: a caller
 * checks each one against the name (with trigram "abc" and "bcd", "abcxbcd" is no match for "abcd").
 */
export class NameGrams {
  readonly #ids = new Map<string, ChunkedList<number>>();
  // The trigrams that contain each text of one or two characters, for the texts too short to
  // have a trigram of their own.
  readonly #within = new Map<string, Set<string>>();

  add(id: number, folded: string): void {
    for (const gram of gramsOf(folded)) this.#listOf(gram).insert(id);
  }

  remove(id: number, folded: string): void {
    for (const gram of gramsOf(folded)) this.#removeFrom(gram, id);
  }

  /** A name's change: only the trigrams it loses and gains are touched. */
  rename(id: number, from: string, to: string): void {
    if (from === to) return;
    const before = gramsOf(from);
    const after = gramsOf(to);
    for (const gram of before) if (!after.has(gram)) this.#removeFrom(gram, id);
    for (const gram of after) if (!before.has(gram)) this.#listOf(gram).insert(id);
  }

  /**
   * The lists of ids that hold every pet whose folded name contains `text` (itself folded): one
   * list for three characters or more (empty when a trigram is unknown), the lists of every
   * trigram around it for fewer. Ids may repeat across lists.
   */
  candidates(text: string): ChunkedList<number>[] {
    if (text.length < 3) return [...(this.#within.get(text) ?? [])].map((gram) => this.#ids.get(gram)!);
    let rarest: ChunkedList<number> | undefined;
    for (let i = 0; i + 3 <= text.length; i++) {
      const ids = this.#ids.get(text.slice(i, i + 3));
      if (!ids) return [];
      if (!rarest || ids.size < rarest.size) rarest = ids;
    }
    return [rarest!];
  }

  #listOf(gram: string): ChunkedList<number> {
    let ids = this.#ids.get(gram);
    if (ids) return ids;
    this.#ids.set(gram, (ids = new ChunkedList(byId)));
    for (const part of partsOf(gram)) {
      let grams = this.#within.get(part);
      if (!grams) this.#within.set(part, (grams = new Set()));
      grams.add(gram);
    }
    return ids;
  }
  #removeFrom(gram: string, id: number): void {
    const ids = this.#ids.get(gram);
    if (!ids?.remove(id) || ids.size > 0) return;
    this.#ids.delete(gram);
    for (const part of partsOf(gram)) {
      const grams = this.#within.get(part);
      grams?.delete(gram);
      if (grams?.size === 0) this.#within.delete(part);
    }
  }
}

/** The distinct trigrams of a folded name (in UTF-16 units); a name shorter than three is padded to one. */
function gramsOf(folded: string): Set<string> {
  const grams = new Set<string>();
  if (folded.length < 3) {
    if (folded.length > 0) grams.add(folded.padEnd(3, PAD));
    return grams;
  }
  for (let i = 0; i + 3 <= folded.length; i++) grams.add(folded.slice(i, i + 3));
  return grams;
}

/** The texts of one and two characters inside a trigram. */
function partsOf(gram: string): string[] {
  return [gram[0]!, gram[1]!, gram[2]!, gram.slice(0, 2), gram.slice(1)];
}
