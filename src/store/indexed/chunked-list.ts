// A sorted list kept in chunks, so that a change in the middle moves at most one chunk's items
// (a plain sorted array of a million pets moves megabytes to insert one name).

const MAX_CHUNK = 512;

/** Where a walk starts: the chunk, and the item in it (may be one past its end). */
export interface Position {
  chunk: number;
  index: number;
}

/** Told each item in turn; returns false to stop the walk. */
export type Visit<T> = (item: T) => boolean;

/** Items in the order of `compare`; items that compare equal are the same item to `remove` and `replace`. */
export class ChunkedList<T> {
  readonly #compare: (a: T, b: T) => number;
  #chunks: T[][] = [];
  #size = 0;

  constructor(compare: (a: T, b: T) => number) {
    this.#compare = compare;
  }

  /** A list of `items`, which must be sorted already: no comparisons. */
  static fromSorted<T>(items: readonly T[], compare: (a: T, b: T) => number): ChunkedList<T> {
    const list = new ChunkedList(compare);
    for (let start = 0; start < items.length; start += MAX_CHUNK / 2) list.#chunks.push(items.slice(start, start + MAX_CHUNK / 2));
    list.#size = items.length;
    return list;
  }

  get size(): number {
    return this.#size;
  }

  /** Adds `item` at its place: an append when it comes last, as a new pet's id always does. */
  insert(item: T): void {
    this.#size++;
    const last = this.#chunks.at(-1);
    if (!last || this.#compare(last.at(-1)!, item) < 0) {
      if (last && last.length < MAX_CHUNK) last.push(item);
      else this.#chunks.push([item]);
      return;
    }
    const { chunk, index } = this.seek((held) => this.#compare(held, item) < 0);
    const items = this.#chunks[chunk]!;
    items.splice(index, 0, item);
    if (items.length > MAX_CHUNK) this.#chunks.splice(chunk + 1, 0, items.splice(MAX_CHUNK / 2));
  }

  /** Removes the item equal to `item`; false when there is none. */
  remove(item: T): boolean {
    const at = this.#find(item);
    if (!at) return false;
    const items = this.#chunks[at.chunk]!;
    items.splice(at.index, 1);
    if (items.length === 0) this.#chunks.splice(at.chunk, 1);
    this.#size--;
    return true;
  }

  /** Puts `item` in the place of the item equal to it (a new object for the same entry); false when there is none. */
  replace(item: T): boolean {
    const at = this.#find(item);
    if (at) this.#chunks[at.chunk]![at.index] = item;
    return at !== undefined;
  }

  /** The position of the first item for which `before` is false; `before` must hold for a prefix of the list. */
  seek(before: (item: T) => boolean): Position {
    const chunks = this.#chunks;
    let low = 0;
    let high = chunks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (before(chunks[middle]!.at(-1)!)) low = middle + 1;
      else high = middle;
    }
    const items = chunks[low];
    if (!items) return { chunk: low, index: 0 };
    let first = 0;
    let last = items.length;
    while (first < last) {
      const middle = (first + last) >>> 1;
      if (before(items[middle]!)) first = middle + 1;
      else last = middle;
    }
    return { chunk: low, index: first };
  }

  /** Visits the items from `from` on, in order, until `visit` returns false. */
  forward(from: Position, visit: Visit<T>): void {
    for (let chunk = from.chunk, index = from.index; chunk < this.#chunks.length; chunk++, index = 0) {
      const items = this.#chunks[chunk]!;
      for (; index < items.length; index++) if (!visit(items[index]!)) return;
    }
  }

  /** Visits the items before `from`, nearest first, until `visit` returns false. */
  backward(from: Position, visit: Visit<T>): void {
    for (let chunk = from.chunk, index = from.index - 1; chunk >= 0; chunk--, index = (this.#chunks[chunk]?.length ?? 0) - 1) {
      const items = this.#chunks[chunk];
      if (items) for (; index >= 0; index--) if (!visit(items[index]!)) return;
    }
  }

  #find(item: T): Position | undefined {
    const at = this.seek((held) => this.#compare(held, item) < 0);
    const held = this.#chunks[at.chunk]?.[at.index];
    return held !== undefined && this.#compare(held, item) === 0 ? at : undefined;
  }
}
