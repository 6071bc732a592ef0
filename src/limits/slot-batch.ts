// A save's batch of subjects: slot numbers of the limiter's table, turned into JSON straight into a
// buffer kept from batch to batch, so that a save builds no row arrays and no strings.
import type { RowBatch, SubjectRow } from "./persister.js";
import type { SubjectTable } from "./subject-table.js";

/**
 * Up to `capacity` slots, read from the table when rows() or json() is called. One instance
 * serves every save of a limiter: saves never overlap, and a consumer writes a batch out before
 * it asks for the next (RowBatch's contract), so the buffer is free again by then.
 */
export class SlotBatch implements RowBatch {
  readonly #table: SubjectTable;
  readonly #slots: Int32Array;
  #size = 0;
  #buffer: Buffer = Buffer.allocUnsafe(64 * 1024);

  constructor(table: SubjectTable, capacity: number) {
    this.#table = table;
    this.#slots = new Int32Array(capacity);
  }

  get size(): number {
    return this.#size;
  }

  get full(): boolean {
    return this.#size === this.#slots.length;
  }

  /** Adds a slot that holds a subject now. */
  add(slot: number): void {
    this.#slots[this.#size++] = slot;
  }

  clear(): void {
    this.#size = 0;
  }

  rows(): SubjectRow[] {
    const rows: SubjectRow[] = [];
    for (const slot of this.#slots.subarray(0, this.#size)) {
      const row = this.#table.rowOf(slot);
      if (row !== undefined) rows.push(row);
    }
    return rows;
  }

  json(): Uint8Array {
    let at = 0;
    for (let i = 0; i < this.#size; i++) {
      const slot = this.#slots[i] as number;
      if (!this.#table.has(slot)) continue;
      let end = this.#table.writeJson(slot, this.#buffer, at);
      while (end < 0) {
        this.#buffer = grown(this.#buffer, at);
        end = this.#table.writeJson(slot, this.#buffer, at);
      }
      at = end;
    }
    return this.#buffer.subarray(0, at);
  }
}

function grown(buffer: Buffer, used: number): Buffer {
  const next = Buffer.allocUnsafe(buffer.length * 2);
  buffer.copy(next, 0, 0, used);
  return next;
}
