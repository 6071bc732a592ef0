// The memory limiter's subjects, held where a young-generation GC has almost nothing to copy.
// As an object per subject in one Map, every new subject's object and every change noted for the
// next save (the request's own young string) survived a scavenge, which copied them: 4-11 ms each,
// once a second, at bench scenario 7's 20,000 decisions a second. And one Map of 100,000 keys
// rehashes all of them in the request that makes it grow or shrink (30-100 ms at 65,536 and
// 131,072 entries). Here a subject is a slot: its counters are numbers in a Float64Array page,
// changed in place, and its key sits in one of 256 small Maps, none of which ever rehashes much.
import type { SubjectRow } from "./persister.js";

/** The counters of a slot, in the order of a SubjectRow after the subject. */
export const MINUTE = 0;
export const MINUTE_SERVED = 1;
export const MINUTE_REJECTED = 2;
export const DAY = 3;
export const DAY_SERVED = 4;
export const DAY_REJECTED = 5;
export const BANNED_UNTIL = 6;
/** 1 while the slot is in the list of changes the next save writes. */
const CHANGED = 7;
const FIELDS = 8;

const PAGE_BITS = 12;
const PAGE_SLOTS = 1 << PAGE_BITS;
const SLOT_MASK = PAGE_SLOTS - 1;
/** Enough that 1,000,000 subjects make shards of ~4,000 keys, whose rehash takes well under a ms. */
const SHARDS = 256;

/**
 * Subjects and their counters by slot number. Slots of removed subjects are reused. Reading or
 * changing a counter allocates nothing; only a new subject keeps its key string.
 */
export class SubjectTable {
  readonly #shards: Array<Map<string, number>> = Array.from({ length: SHARDS }, () => new Map<string, number>());
  readonly #pages: Float64Array[] = [];
  readonly #keys: Array<Array<string | undefined>> = [];
  #free: Int32Array = new Int32Array(64);
  #freeCount = 0;
  #end = 0;
  #size = 0;
  /** Slots changed since the last takeChanged(), each once. */
  #changed: Int32Array = new Int32Array(1024);
  #changedCount = 0;

  get size(): number {
    return this.#size;
  }

  /** One past the highest slot ever used: a walk over 0..end sees every subject. */
  get end(): number {
    return this.#end;
  }

  /** The subject's slot, or -1. */
  find(subject: string): number {
    return this.#shardOf(subject).get(subject) ?? -1;
  }

  /** A slot for a subject not in the table, its counters zero in the given windows. */
  add(subject: string, minute: number, day: number): number {
    const slot = this.#freeCount > 0 ? (this.#free[--this.#freeCount] as number) : this.#grow();
    this.#shardOf(subject).set(subject, slot);
    (this.#keys[slot >> PAGE_BITS] as Array<string | undefined>)[slot & SLOT_MASK] = subject;
    const page = this.#page(slot);
    const at = (slot & SLOT_MASK) * FIELDS;
    page.fill(0, at, at + FIELDS);
    page[at + MINUTE] = minute;
    page[at + DAY] = day;
    this.#size++;
    return slot;
  }

  /** Forgets the subject in this slot; the slot may be given to another subject. */
  remove(slot: number): void {
    const subject = this.subjectAt(slot);
    if (subject === undefined) return;
    this.#shardOf(subject).delete(subject);
    (this.#keys[slot >> PAGE_BITS] as Array<string | undefined>)[slot & SLOT_MASK] = undefined;
    this.set(slot, CHANGED, 0);
    if (this.#freeCount === this.#free.length) this.#free = grown(this.#free);
    this.#free[this.#freeCount++] = slot;
    this.#size--;
  }

  /** The subject in this slot, or undefined for a free slot. */
  subjectAt(slot: number): string | undefined {
    return this.#keys[slot >> PAGE_BITS]?.[slot & SLOT_MASK];
  }

  get(slot: number, field: number): number {
    return this.#page(slot)[(slot & SLOT_MASK) * FIELDS + field] as number;
  }

  set(slot: number, field: number, value: number): void {
    this.#page(slot)[(slot & SLOT_MASK) * FIELDS + field] = value;
  }

  /** Notes the slot for the next save (once, however often it changes). */
  markChanged(slot: number): void {
    const page = this.#page(slot);
    const at = (slot & SLOT_MASK) * FIELDS + CHANGED;
    if (page[at] === 1) return;
    page[at] = 1;
    if (this.#changedCount === this.#changed.length) this.#changed = grown(this.#changed);
    this.#changed[this.#changedCount++] = slot;
  }

  get changedCount(): number {
    return this.#changedCount;
  }

  /** The slots changed so far, handed over and forgotten: later changes start a new list. */
  takeChanged(): Int32Array {
    const taken = this.#changed.slice(0, this.#changedCount);
    for (const slot of taken) this.set(slot, CHANGED, 0);
    this.#changedCount = 0;
    return taken;
  }

  /** The slot's row as it is now; undefined for a free slot. */
  rowOf(slot: number): SubjectRow | undefined {
    const subject = this.subjectAt(slot);
    if (subject === undefined) return undefined;
    const page = this.#page(slot);
    const at = (slot & SLOT_MASK) * FIELDS;
    return [subject, page[at] as number, page[at + 1] as number, page[at + 2] as number, page[at + 3] as number, page[at + 4] as number, page[at + 5] as number, page[at + 6] as number];
  }

  /** Puts a saved row back (restore at start-up); the subject must not be in the table yet. */
  restore(row: SubjectRow): number {
    const slot = this.add(row[0], row[1], row[4]);
    for (let field = MINUTE; field <= BANNED_UNTIL; field++) this.set(slot, field, row[field + 1] as number);
    return slot;
  }

  #page(slot: number): Float64Array {
    return this.#pages[slot >> PAGE_BITS] as Float64Array;
  }

  #grow(): number {
    const slot = this.#end++;
    if ((slot & SLOT_MASK) === 0) {
      this.#pages.push(new Float64Array(PAGE_SLOTS * FIELDS));
      this.#keys.push(new Array<string | undefined>(PAGE_SLOTS).fill(undefined));
    }
    return slot;
  }

  #shardOf(subject: string): Map<string, number> {
    return this.#shards[hash(subject) & (SHARDS - 1)] as Map<string, number>;
  }
}

/** FNV-1a over the UTF-16 code units, folded so that the low bits depend on every character. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 16)) >>> 0;
}

function grown(list: Int32Array): Int32Array {
  const next = new Int32Array(list.length * 2);
  next.set(list);
  return next;
}
