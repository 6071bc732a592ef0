/** An entry: due at `due` (ms), ties broken by id so that older deliveries go first. */
export interface DueEntry {
  due: number;
  id: number;
}

/**
 * A binary min-heap by due time. Entries are never removed from the middle: a caller keeps with
 * each entry what makes it still true and drops the stale ones as they surface, which costs less
 * than finding them whenever a delivery changes.
 */
export class DueHeap<T extends DueEntry> {
  readonly #items: T[] = [];

  get size(): number {
    return this.#items.length;
  }

  peek(): T | undefined {
    return this.#items[0];
  }

  push(entry: T): void {
    const items = this.#items;
    items.push(entry);
    let at = items.length - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!before(items[at]!, items[parent]!)) break;
      [items[at], items[parent]] = [items[parent]!, items[at]!];
      at = parent;
    }
  }

  pop(): T | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    items[0] = last;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let first = at;
      if (left < items.length && before(items[left]!, items[first]!)) first = left;
      if (right < items.length && before(items[right]!, items[first]!)) first = right;
      if (first === at) return top;
      [items[at], items[first]] = [items[first]!, items[at]!];
      at = first;
    }
  }
}

function before(a: DueEntry, b: DueEntry): boolean {
  return a.due < b.due || (a.due === b.due && a.id < b.id);
}
