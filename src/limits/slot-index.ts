// Finds a subject's slot by its key's hash, with no JS objects per entry: an open-addressing
// table (linear probing) of slot numbers in Int32Arrays, the hashes beside them.

/**
 * The index is split by the top bits of the hash into parts that grow on their own, so that a
 * growth re-inserts a 256th of the subjects: doubling one large index at once stalls a request.
 */
const PART_BITS = 8;
const PARTS = 1 << PART_BITS;

/** Slot numbers by hash; which slot holds which key is the caller's (`keyIs`). */
export class SlotIndex {
  /** Per part: slot + 1 at the first free position from the hash on, 0 where empty; never over half full. */
  readonly #slots: Int32Array[] = Array.from({ length: PARTS }, () => new Int32Array(16));
  /** The hash of each entry, beside it, so that probing and growing never ask the caller. */
  readonly #hashes: Int32Array[] = Array.from({ length: PARTS }, () => new Int32Array(16));
  readonly #counts = new Int32Array(PARTS);
  readonly #keyIs: (slot: number, key: string) => boolean;

  constructor(keyIs: (slot: number, key: string) => boolean) {
    this.#keyIs = keyIs;
  }

  /** The slot whose key is `key` (of hash `h`), or -1. */
  find(key: string, h: number): number {
    const part = h >>> (32 - PART_BITS);
    const slots = this.#slots[part] as Int32Array;
    const hashes = this.#hashes[part] as Int32Array;
    const mask = slots.length - 1;
    for (let i = h & mask; slots[i] !== 0; i = (i + 1) & mask) {
      if (hashes[i] === (h | 0) && this.#keyIs((slots[i] as number) - 1, key)) return (slots[i] as number) - 1;
    }
    return -1;
  }

  insert(slot: number, h: number): void {
    const part = h >>> (32 - PART_BITS);
    this.#counts[part] = (this.#counts[part] as number) + 1;
    if ((this.#counts[part] as number) * 2 > (this.#slots[part] as Int32Array).length) this.#grow(part);
    place(this.#slots[part] as Int32Array, this.#hashes[part] as Int32Array, slot, h | 0);
  }

  /** Removes the slot (indexed with hash `h`), moving back the entries after it: no tombstones to skip later. */
  remove(slot: number, h: number): void {
    const part = h >>> (32 - PART_BITS);
    const slots = this.#slots[part] as Int32Array;
    const hashes = this.#hashes[part] as Int32Array;
    const mask = slots.length - 1;
    let hole = h & mask;
    while (slots[hole] !== slot + 1) hole = (hole + 1) & mask;
    for (let i = (hole + 1) & mask; slots[i] !== 0; i = (i + 1) & mask) {
      const home = (hashes[i] as number) & mask;
      // The entry may move into the hole unless its home lies cyclically in (hole, i].
      const stays = hole <= i ? home > hole && home <= i : home > hole || home <= i;
      if (!stays) {
        slots[hole] = slots[i] as number;
        hashes[hole] = hashes[i] as number;
        hole = i;
      }
    }
    slots[hole] = 0;
    this.#counts[part] = (this.#counts[part] as number) - 1;
  }

  #grow(part: number): void {
    const slots = this.#slots[part] as Int32Array;
    const hashes = this.#hashes[part] as Int32Array;
    const nextSlots = new Int32Array(slots.length * 2);
    const nextHashes = new Int32Array(slots.length * 2);
    for (let i = 0; i < slots.length; i++) {
      if (slots[i] !== 0) place(nextSlots, nextHashes, (slots[i] as number) - 1, hashes[i] as number);
    }
    this.#slots[part] = nextSlots;
    this.#hashes[part] = nextHashes;
  }
}

/** FNV-1a over the UTF-16 code units, folded so that the low bits depend on every character. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 16)) >>> 0;
}

function place(slots: Int32Array, hashes: Int32Array, slot: number, h: number): void {
  const mask = slots.length - 1;
  let i = h & mask;
  while (slots[i] !== 0) i = (i + 1) & mask;
  slots[i] = slot + 1;
  hashes[i] = h;
}
