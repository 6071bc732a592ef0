import { compareFolded } from "../../contract/name-search.js";
import type { Pet } from "../../contract/values.js";
import { ChunkedList } from "./chunked-list.js";

/** The folded name of a pet the index holds. */
export type KeyOf = (pet: Pet) => string;

/**
 * The pets of each list (all, each status, each category, each pair: the id lists' keys) in
 * name order: by folded name, then id. Kept in step with every change, so that the first
 * sort=name listing at a million pets is no slower than the next (built on first use, it would
 * stall every request for the second its sort takes).
 */
export class NameOrders {
  readonly #lists = new Map<string, ChunkedList<Pet>>();
  readonly compare: (a: Pet, b: Pet) => number;

  constructor(keyOf: KeyOf) {
    this.compare = (a, b) => compareFolded(keyOf(a), keyOf(b)) || a.id - b.id;
  }

  /** Fills empty lists with many pets at once: one sort for all of them, not one insert each. */
  load(pets: readonly Pet[], listKeysOf: (pet: Pet) => readonly string[]): void {
    const lists = new Map<string, Pet[]>();
    for (const pet of [...pets].sort(this.compare)) {
      for (const key of listKeysOf(pet)) {
        const list = lists.get(key);
        if (list) list.push(pet);
        else lists.set(key, [pet]);
      }
    }
    for (const [key, list] of lists) this.#lists.set(key, ChunkedList.fromSorted(list, this.compare));
  }

  /** The list in name order, absent when no pet is in it. */
  list(listKey: string): ChunkedList<Pet> | undefined {
    return this.#lists.get(listKey);
  }

  /** Adds `pet` to `listKeys`'s lists, at the place of the key it is listed under now. */
  add(listKeys: readonly string[], pet: Pet): void {
    for (const key of listKeys) {
      let list = this.#lists.get(key);
      if (!list) this.#lists.set(key, (list = new ChunkedList(this.compare)));
      list.insert(pet);
    }
  }

  remove(listKeys: readonly string[], pet: Pet): void {
    for (const key of listKeys) {
      const list = this.#lists.get(key);
      if (!list) continue;
      list.remove(pet);
      if (list.size === 0) this.#lists.delete(key);
    }
  }

  /** `pet` in the place of the entry with its id, in lists where its key and place did not change. */
  replace(listKeys: readonly string[], pet: Pet): void {
    for (const key of listKeys) this.#lists.get(key)?.replace(pet);
  }
}
