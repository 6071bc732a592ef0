// The memory limiter's subjects, held where a young-generation GC has nothing to copy.
// As an object per subject in one Map, every new subject's object and key, and every change noted
// for the next save (the request's own young string), survived a scavenge, which copied them: a
// pause every second under a steady stream of decisions. And one large Map rehashes every key in
// the request that makes it grow or shrink: a long pause for that one request. Here a subject is a slot: its counters are numbers in a Float64Array page,
// changed in place; its key's characters are copied into a byte page; and an open-addressing
// index of slot numbers (slot-index.ts) finds it. A decision allocates nothing that survives.
import type { SubjectRow } from "./persister.js";
import { hash, SlotIndex } from "./slot-index.js";

/** The counters of a slot, in the order of a SubjectRow after the subject. */
export const MINUTE = 0;
export const MINUTE_SERVED = 1;
export const MINUTE_REJECTED = 2;
export const DAY = 3;
export const DAY_SERVED = 4;
export const DAY_REJECTED = 5;
export const BANNED_UNTIL = 6;
/** The number of the list of changes that holds the slot (see markChanged). */
const CHANGED = 7;
const HASH = 8;
/** The key's length in the byte page; -1 for a key kept as a string (see #long). */
const LENGTH = 9;
const FIELDS = 10;

const PAGE_BITS = 12;
const PAGE_SLOTS = 1 << PAGE_BITS;
const SLOT_MASK = PAGE_SLOTS - 1;
/** Bytes of key per slot: `key:` + a 20-character key id, `ip:` + any IPv4 or most IPv6 texts. */
export const KEY_BYTES = 48;

/**
 * Subjects and their counters by slot number; slots of removed subjects are reused. Keys longer
 * than KEY_BYTES, or with characters that are not printable ASCII or need escaping in JSON, are
 * kept as strings in a Map of their own (none of the server's subjects are).
 */
export class SubjectTable {
  readonly #pages: Float64Array[] = [];
  readonly #texts: Uint8Array[] = [];
  readonly #index = new SlotIndex((slot, key) => this.#keyIs(slot, key));
  readonly #long = new Map<string, number>();
  readonly #longKeys = new Map<number, string>();
  #free: Int32Array = new Int32Array(64);
  #freeCount = 0;
  #end = 0;
  #size = 0;
  /** Slots changed since the last takeChanged(), each once; the list taken before is kept in #spare. */
  #changed: Int32Array = new Int32Array(1024);
  #spare: Int32Array = new Int32Array(1024);
  #changedCount = 0;
  /** Numbers each list of changes: a slot is in the current list when its CHANGED field holds this. */
  #generation = 1;
  /** The last subject find() answered, its slot, and how many removals there had been then. */
  #lastSubject: string | undefined;
  #lastSlot = -1;
  #lastRemovals = 0;
  #removals = 0;

  get size(): number {
    return this.#size;
  }

  /** One past the highest slot ever used: a walk over 0..end sees every subject. */
  get end(): number {
    return this.#end;
  }

  /** The subject's slot, or -1. */
  find(subject: string): number {
    // A key's requests come one after another: the last subject found is asked for again far
    // more often than any other, and comparing it costs less than hashing it (until a removal).
    if (subject === this.#lastSubject && this.#removals === this.#lastRemovals) return this.#lastSlot;
    let slot = subject.length <= KEY_BYTES ? this.#index.find(subject, hash(subject)) : -1;
    if (slot < 0 && this.#long.size > 0) slot = this.#long.get(subject) ?? -1;
    if (slot >= 0) this.#remember(subject, slot);
    return slot;
  }

  #remember(subject: string, slot: number): void {
    this.#lastSubject = subject;
    this.#lastSlot = slot;
    this.#lastRemovals = this.#removals;
  }

  /** A slot for a subject not in the table, its counters zero in the given windows. */
  add(subject: string, minute: number, day: number): number {
    // Every slot is taken from the free list, new ones too: reused slots first appear after a
    // midnight's removals, and a branch for them that had never run deoptimised `add` there.
    if (this.#freeCount === 0) this.#free[this.#freeCount++] = this.#grow();
    const slot = this.#free[--this.#freeCount] as number;
    const page = this.#page(slot);
    const at = (slot & SLOT_MASK) * FIELDS;
    page.fill(0, at, at + FIELDS);
    page[at + MINUTE] = minute;
    page[at + DAY] = day;
    if (storable(subject)) {
      const text = this.#texts[slot >> PAGE_BITS] as Uint8Array;
      const from = (slot & SLOT_MASK) * KEY_BYTES;
      for (let i = 0; i < subject.length; i++) text[from + i] = subject.charCodeAt(i);
      page[at + LENGTH] = subject.length;
      const h = hash(subject);
      page[at + HASH] = h;
      this.#index.insert(slot, h);
    } else {
      page[at + LENGTH] = -1;
      this.#long.set(subject, slot);
      this.#longKeys.set(slot, subject);
    }
    this.#size++;
    return slot;
  }

  /** Forgets the subject in this slot (none for -1); the slot may be given to another subject. */
  remove(slot: number): void {
    if (!this.has(slot)) return;
    this.#removals++;
    const length = this.get(slot, LENGTH);
    if (length < 0) {
      this.#long.delete(this.#longKeys.get(slot) as string);
      this.#longKeys.delete(slot);
    } else {
      this.#index.remove(slot, this.get(slot, HASH));
    }
    this.set(slot, LENGTH, 0);
    if (this.#freeCount === this.#free.length) this.#free = grown(this.#free);
    this.#free[this.#freeCount++] = slot;
    this.#size--;
  }

  /** True when the slot holds a subject. */
  has(slot: number): boolean {
    return slot >= 0 && slot < this.#end && this.get(slot, LENGTH) !== 0;
  }

  /** The subject in this slot (a new string), or undefined for a free slot. */
  subjectAt(slot: number): string | undefined {
    if (!this.has(slot)) return undefined;
    const length = this.get(slot, LENGTH);
    if (length < 0) return this.#longKeys.get(slot);
    const from = (slot & SLOT_MASK) * KEY_BYTES;
    return String.fromCharCode(...(this.#texts[slot >> PAGE_BITS] as Uint8Array).subarray(from, from + length));
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
    if (page[at] === this.#generation) return;
    page[at] = this.#generation;
    if (this.#changedCount === this.#changed.length) this.#changed = grown(this.#changed);
    this.#changed[this.#changedCount++] = slot;
  }

  get changedCount(): number {
    return this.#changedCount;
  }

  /**
   * The slots changed so far, handed over: later changes start a new list, in O(1). The list is
   * valid until the next call (saves never overlap); put it back with markChanged if unsaved.
   */
  takeChanged(): Int32Array {
    const taken = this.#changed.subarray(0, this.#changedCount);
    [this.#changed, this.#spare] = [this.#spare, this.#changed];
    this.#changedCount = 0;
    this.#generation++;
    return taken;
  }

  /** The slot's row as it is now; undefined for a free slot. */
  rowOf(slot: number): SubjectRow | undefined {
    const subject = this.subjectAt(slot);
    if (subject === undefined) return undefined;
    const v = (field: number) => this.get(slot, field);
    return [subject, v(MINUTE), v(MINUTE_SERVED), v(MINUTE_REJECTED), v(DAY), v(DAY_SERVED), v(DAY_REJECTED), v(BANNED_UNTIL)];
  }

  /**
   * Writes `,` and the slot's row as JSON into `out` at `at`, returning where it ends, or -1 when
   * `out` has too little room after `at` (then nothing is written). Nothing is allocated.
   */
  writeJson(slot: number, out: Uint8Array, at: number): number {
    const length = this.get(slot, LENGTH);
    const key = length < 0 ? JSON.stringify(this.#longKeys.get(slot)) : undefined;
    const keyBytes = key === undefined ? length + 2 : Buffer.byteLength(key);
    if (at + keyBytes + ROW_NUMBERS_BYTES > out.length) return -1;
    out[at++] = COMMA;
    out[at++] = OPEN;
    if (key !== undefined) {
      at += Buffer.from(out.buffer, out.byteOffset, out.length).write(key, at);
    } else {
      const text = this.#texts[slot >> PAGE_BITS] as Uint8Array;
      const from = (slot & SLOT_MASK) * KEY_BYTES;
      out[at++] = QUOTE;
      for (let i = 0; i < length; i++) out[at++] = text[from + i] as number;
      out[at++] = QUOTE;
    }
    for (let field = MINUTE; field <= BANNED_UNTIL; field++) {
      out[at++] = COMMA;
      at = writeCount(out, at, this.get(slot, field));
    }
    out[at++] = CLOSE;
    return at;
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

  #keyIs(slot: number, subject: string): boolean {
    if (this.get(slot, LENGTH) !== subject.length) return false;
    const text = this.#texts[slot >> PAGE_BITS] as Uint8Array;
    const from = (slot & SLOT_MASK) * KEY_BYTES;
    for (let i = 0; i < subject.length; i++) if (text[from + i] !== subject.charCodeAt(i)) return false;
    return true;
  }

  #grow(): number {
    const slot = this.#end++;
    if ((slot & SLOT_MASK) === 0) {
      this.#pages.push(new Float64Array(PAGE_SLOTS * FIELDS));
      this.#texts.push(new Uint8Array(PAGE_SLOTS * KEY_BYTES));
    }
    return slot;
  }
}

const COMMA = 0x2c;
const OPEN = 0x5b;
const CLOSE = 0x5d;
const QUOTE = 0x22;
/** Room for the brackets and commas and seven numbers as JSON (at most 24 characters each). */
const ROW_NUMBERS_BYTES = 3 + 7 * 25;

/** True when the key fits a byte page and can go into JSON as it is: printable ASCII, no `"` or `\`. */
function storable(subject: string): boolean {
  if (subject.length > KEY_BYTES || subject.length === 0) return false;
  for (let i = 0; i < subject.length; i++) {
    const code = subject.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === QUOTE || code === 0x5c) return false;
  }
  return true;
}

/** Writes a counter's decimal digits (a non-negative safe integer, as every counter is). */
function writeCount(out: Uint8Array, at: number, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    // Never for counters this table keeps; written as JSON.stringify would, so a reader rejects it alike.
    return at + Buffer.from(out.buffer, out.byteOffset, out.length).write(JSON.stringify(value), at);
  }
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  for (let i = at + digits - 1, rest = value; i >= at; i--, rest = Math.floor(rest / 10)) out[i] = 0x30 + (rest % 10);
  return at + digits;
}

function grown(list: Int32Array): Int32Array {
  const next = new Int32Array(list.length * 2);
  next.set(list);
  return next;
}
