import { codePointSortKey, compareFolded } from "../../contract/name-search.js";
import type { Pet } from "../../contract/values.js";
import { ChunkedList } from "./chunked-list.js";

/** The folded name of the pet with this id, as the index holds it now. */
export type KeyOfId = (id: number) => string;

/**
 * The pets of each list (all, each status, each category, each pair: the id lists' keys) in
 * name order: by folded name, then id. Kept in step with every change, so that the first
 * sort=name listing at a million pets is no slower than the next (built on first use, it would
 * stall every request for the second its sort takes). A pet must be removed under the name it
 * was added with, so before the index holds its new one.
 */
export class NameOrders {
  readonly #lists = new Map<string, ChunkedList>();
  readonly compare: (a: number, b: number) => number;

  constructor(keyOf: KeyOfId) {
    this.compare = (a, b) => compareFolded(keyOf(a), keyOf(b)) || a - b;
  }

  /** An independent copy that reads names through `keyOf` (the new index's, holding the same names). */
  copy(keyOf: KeyOfId): NameOrders {
    const orders = new NameOrders(keyOf);
    for (const [key, list] of this.#lists) orders.#lists.set(key, list.copy(orders.compare));
    return orders;
  }

  /**
   * Fills the lists with many pets at once (their folded names given): one sort for all of them,
   * then each pet appended to its lists in that order, not one insert each. `listKey` names a list.
   */
  load(pets: readonly Pet[], folded: readonly string[], listKey: (status?: string, categoryId?: number) => string): void {
    // An array of indexes sorted by the engine's own string comparison: a comparator in JavaScript
    // over a typed array took three times as long at a million names.
    const keys = folded.map(codePointSortKey);
    const order = Array.from(pets.keys()).sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : pets[a]!.id - pets[b]!.id));
    const all: number[] = [];
    const byStatus = new Map<string, number[]>();
    const byCategory = new Map<number, number[]>();
    const byBoth = new Map<string, Map<number, number[]>>();
    for (const index of order) {
      const { id, status, categoryId } = pets[index]!;
      all.push(id);
      listIn(byStatus, status).push(id);
      listIn(byCategory, categoryId).push(id);
      let inStatus = byBoth.get(status);
      if (!inStatus) byBoth.set(status, (inStatus = new Map()));
      listIn(inStatus, categoryId).push(id);
    }
    const keep = (key: string, ids: number[]) => this.#lists.set(key, ChunkedList.fromSorted(ids, this.compare));
    if (all.length > 0) keep(listKey(), all);
    for (const [status, ids] of byStatus) keep(listKey(status), ids);
    for (const [categoryId, ids] of byCategory) keep(listKey(undefined, categoryId), ids);
    for (const [status, inStatus] of byBoth) for (const [categoryId, ids] of inStatus) keep(listKey(status, categoryId), ids);
  }

  /** The list in name order, absent when no pet is in it. */
  list(listKey: string): ChunkedList | undefined {
    return this.#lists.get(listKey);
  }

  add(listKeys: readonly string[], id: number): void {
    for (const key of listKeys) {
      let list = this.#lists.get(key);
      if (!list) this.#lists.set(key, (list = new ChunkedList(this.compare)));
      list.insert(id);
    }
  }

  remove(listKeys: readonly string[], id: number): void {
    for (const key of listKeys) {
      const list = this.#lists.get(key);
      if (!list) continue;
      list.remove(id);
      if (list.size === 0) this.#lists.delete(key);
    }
  }
}

function listIn<K>(lists: Map<K, number[]>, key: K): number[] {
  let list = lists.get(key);
  if (!list) lists.set(key, (list = []));
  return list;
}
