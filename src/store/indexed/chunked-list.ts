// A sorted list of pet ids kept in chunks, so that a change in the middle moves at most one
// chunk's ids (a plain sorted array of a million moves megabytes to insert one name), held in
// typed arrays: 4 bytes an id, outside the JavaScript heap, never scanned by the collector.

const MAX_CHUNK = 512;

/** Where a walk starts: the chunk, and the id in it (may be one past its end). */
export interface Position {
  chunk: number;
  index: number;
}

/** Told each id in turn; returns false to stop the walk. */
export type Visit = (id: number) => boolean;

interface Chunk {
  ids: Uint32Array | Float64Array;
  length: number;
}

/** Ids in the order of `compare` (which must order distinct ids apart); an id is held once. */
export class ChunkedList {
  readonly #compare: (a: number, b: number) => number;
  #chunks: Chunk[] = [];
  #size = 0;
  // Ids past 2^32 - 1 (possible, never seen): from the first one on, chunks of 8-byte numbers.
  #wide = false;

  constructor(compare: (a: number, b: number) => number) {
    this.#compare = compare;
  }

  /** A list of `ids`, which must be in order already and distinct: no comparisons. */
  static fromSorted(ids: ArrayLike<number>, compare: (a: number, b: number) => number): ChunkedList {
    const list = new ChunkedList(compare);
    for (let start = 0; start < ids.length; start += MAX_CHUNK / 2) {
      const length = Math.min(MAX_CHUNK / 2, ids.length - start);
      const chunk = list.#newChunk(length * 2);
      list.#chunks.push(chunk);
      for (let i = 0; i < length; i++) list.#put(chunk, i, ids[start + i]!);
      chunk.length = length;
    }
    list.#size = ids.length;
    return list;
  }

  /** An independent copy (its own arrays), ordered by `compare`, which must order the ids as this list's does. */
  copy(compare: (a: number, b: number) => number = this.#compare): ChunkedList {
    const list = new ChunkedList(compare);
    list.#chunks = this.#chunks.map((chunk) => ({ ids: chunk.ids.slice(), length: chunk.length }));
    list.#size = this.#size;
    list.#wide = this.#wide;
    return list;
  }

  get size(): number {
    return this.#size;
  }

  /** Adds `id` at its place (an append when it comes last, as a new pet's id does); nothing when held already. */
  insert(id: number): void {
    const last = this.#chunks[this.#chunks.length - 1];
    const order = last === undefined ? -1 : this.#compare(last.ids[last.length - 1]!, id);
    if (order === 0) return;
    if (order < 0) return this.#append(last, id);
    const { chunk, index } = this.seek((held) => this.#compare(held, id) < 0);
    const at = this.#chunks[chunk]!;
    if (index < at.length && at.ids[index] === id) return;
    this.#insertAt(chunk, index, id);
  }

  /** Adds `id`, which must come after every id held or be the last one (then nothing): a load in order, no comparison. */
  push(id: number): void {
    const last = this.#chunks[this.#chunks.length - 1];
    if (last === undefined || last.ids[last.length - 1] !== id) this.#append(last, id);
  }

  /** Removes `id`; false when it is not held. */
  remove(id: number): boolean {
    const { chunk, index } = this.seek((held) => this.#compare(held, id) < 0);
    const at = this.#chunks[chunk];
    if (!at || index >= at.length || at.ids[index] !== id) return false;
    at.ids.copyWithin(index, index + 1, at.length);
    if (--at.length === 0) this.#chunks.splice(chunk, 1);
    this.#size--;
    return true;
  }

  /** The position of the first id for which `before` is false; `before` must hold for a prefix of the list. */
  seek(before: (id: number) => boolean): Position {
    const chunks = this.#chunks;
    let low = 0;
    let high = chunks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const chunk = chunks[middle]!;
      if (before(chunk.ids[chunk.length - 1]!)) low = middle + 1;
      else high = middle;
    }
    const chunk = chunks[low];
    if (!chunk) return { chunk: low, index: 0 };
    let first = 0;
    let last = chunk.length;
    while (first < last) {
      const middle = (first + last) >>> 1;
      if (before(chunk.ids[middle]!)) first = middle + 1;
      else last = middle;
    }
    return { chunk: low, index: first };
  }

  /** Visits the ids from `from` on, in order, until `visit` returns false. */
  forward(from: Position, visit: Visit): void {
    for (let chunk = from.chunk, index = from.index; chunk < this.#chunks.length; chunk++, index = 0) {
      const { ids, length } = this.#chunks[chunk]!;
      for (; index < length; index++) if (!visit(ids[index]!)) return;
    }
  }

  /** Visits the ids before `from`, nearest first, until `visit` returns false. */
  backward(from: Position, visit: Visit): void {
    for (let chunk = from.chunk, index = from.index - 1; chunk >= 0; chunk--, index = (this.#chunks[chunk]?.length ?? 0) - 1) {
      const ids = this.#chunks[chunk]?.ids;
      if (ids) for (; index >= 0; index--) if (!visit(ids[index]!)) return;
    }
  }

  /**
   * After the last id: fills the last chunk, then starts a new one, never splits, so that ids
   * that only ever arrive in order (most) are held in full chunks.
   */
  #append(last: Chunk | undefined, id: number): void {
    if (last === undefined || last.length >= MAX_CHUNK - 1) {
      this.#chunks.push((last = this.#newChunk(last === undefined ? 4 : MAX_CHUNK)));
    } else if (last.length === last.ids.length) {
      last.ids = this.#grown(last.ids, Math.min(MAX_CHUNK, last.length * 2));
    }
    this.#put(last, last.length++, id);
    this.#size++;
  }

  #insertAt(chunkIndex: number, index: number, id: number): void {
    let chunk = this.#chunks[chunkIndex];
    if (!chunk) this.#chunks.push((chunk = this.#newChunk(4)));
    if (chunk.length === chunk.ids.length) chunk.ids = this.#grown(chunk.ids, Math.min(MAX_CHUNK, chunk.length * 2));
    chunk.ids.copyWithin(index + 1, index, chunk.length);
    this.#put(chunk, index, id);
    chunk.length++;
    this.#size++;
    if (chunk.length === MAX_CHUNK) {
      // Split in two halves, each with room to grow.
      const half = this.#newChunk(MAX_CHUNK);
      half.ids.set(chunk.ids.subarray(MAX_CHUNK / 2, MAX_CHUNK));
      half.length = MAX_CHUNK / 2;
      chunk.length = MAX_CHUNK / 2;
      this.#chunks.splice(chunkIndex + 1, 0, half);
    }
  }

  #put(chunk: Chunk, index: number, id: number): void {
    if (id > 0xffff_ffff && !this.#wide) this.#widen();
    // Read again: widening replaced the array.
    chunk.ids[index] = id;
  }

  #widen(): void {
    this.#wide = true;
    for (const chunk of this.#chunks) chunk.ids = Float64Array.from(chunk.ids);
  }

  #newChunk(capacity: number): Chunk {
    return { ids: this.#wide ? new Float64Array(capacity) : new Uint32Array(capacity), length: 0 };
  }

  #grown(ids: Uint32Array | Float64Array, capacity: number): Uint32Array | Float64Array {
    const grown = this.#wide ? new Float64Array(capacity) : new Uint32Array(capacity);
    grown.set(ids);
    return grown;
  }
}
