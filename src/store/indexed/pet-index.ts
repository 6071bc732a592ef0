import { PET_STATUSES, type Pet, type PetStatus } from "../../contract/values.js";
import type { ListPetsQuery, PetPage, StoredPet } from "../pet-store.js";
import type { PetRecord } from "./records.js";

// One sequence for every index in the process: a version is never shared by two states, even
// when an index is replaced by a new one (an import) or two stores live side by side (tests).
let lastVersion = 0;
const takeVersion = () => ++lastVersion;

/**
 * Committed pets, indexed so that a page costs a binary search and a slice, never a scan: one
 * id-sorted list of all pets, one per status, one per category and one per (status, category),
 * so a filtered page only ever looks at pets inside its filter.
 */
export class PetIndex {
  // Each pet is held once, by id in a plain array (ids are dense integers: a slot a pet, where a
  // Map entry and a {pet, revision} wrapper cost many times that), and its revision only once
  // past 1: the resident memory at many pets showed these as the index's own cost.
  readonly #byId: (Pet | undefined)[] = [];
  readonly #revisions = new Map<number, number>();
  readonly #lists = new Map<string, Pet[]>([["", []]]);
  #size = 0;
  #lastId = 0;
  #version = takeVersion();

  /** Adds or replaces pets (a replaced pet moves to the lists of its new status and category). */
  put(records: readonly StoredPet[]): void {
    if (records.length > 0) this.#version = takeVersion();
    for (const { pet, revision } of records) {
      const held = this.#byId[pet.id];
      this.#byId[pet.id] = pet;
      if (revision > 1) this.#revisions.set(pet.id, revision);
      else this.#revisions.delete(pet.id);
      if (held) this.#relist(held, pet);
      else {
        this.#size++;
        for (const key of listKeys(pet)) insertSorted(this.#listFor(key), pet);
      }
      this.#lastId = Math.max(this.#lastId, pet.id);
    }
  }

  /** Removes the pets with these ids; unknown ids are skipped. */
  remove(ids: Iterable<number>): void {
    for (const id of ids) {
      const held = this.#byId[id];
      if (!held) continue;
      this.#version = takeVersion();
      this.#byId[id] = undefined;
      this.#revisions.delete(id);
      this.#size--;
      this.#unlist(held);
    }
  }

  get(id: number): StoredPet | undefined {
    const pet = Number.isSafeInteger(id) && id > 0 ? this.#byId[id] : undefined;
    return pet && { pet, revision: this.#revisionOf(id) };
  }

  list({ status, categoryId, afterId = 0, limit }: ListPetsQuery): PetPage {
    const pets = this.#lists.get(listKey(status, categoryId)) ?? [];
    const start = firstAfter(pets, afterId);
    const end = start + Math.max(0, limit);
    const page = pets.slice(start, end);
    return { pets: page, revisions: page.map((pet) => this.#revisionOf(pet.id)), hasMore: end < pets.length };
  }

  /** The length of each status's list: no scan. */
  countByStatus(): Record<PetStatus, number> {
    const counts = {} as Record<PetStatus, number>;
    for (const status of PET_STATUSES) counts[status] = this.count(status);
    return counts;
  }

  /** How many pets have this status: the length of its list, so never a scan. */
  count(status: string): number {
    return this.#lists.get(listKey(status, undefined))?.length ?? 0;
  }

  get size(): number {
    return this.#size;
  }

  /** Moves with every put or removal: what a cached listing was made from is still current while it stays. */
  get version(): number {
    return this.#version;
  }

  /** The highest id ever held, deleted pets included. */
  get lastId(): number {
    return this.#lastId;
  }

  /** The committed pets as file records, sorted by id: a new array, the index is not changed. */
  records(): PetRecord[] {
    return (this.#lists.get("") ?? []).map((pet) => toPetRecord({ pet, revision: this.#revisionOf(pet.id) }));
  }

  #revisionOf(id: number): number {
    return this.#revisions.get(id) ?? 1;
  }

  /** A pet in the lists it stays in is replaced where it is (a binary search, no array moves); it moves only out of the others. */
  #relist(held: Pet, pet: Pet): void {
    const keys = listKeys(pet);
    const heldKeys = listKeys(held);
    for (let i = 0; i < keys.length; i++) {
      const list = this.#lists.get(heldKeys[i]!);
      const at = list ? firstAfter(list, held.id - 1) : -1;
      if (keys[i] === heldKeys[i] && list && list[at]?.id === held.id) {
        list[at] = pet;
        continue;
      }
      this.#unlistFrom(heldKeys[i]!, held.id);
      insertSorted(this.#listFor(keys[i]!), pet);
    }
  }

  #unlist(pet: Pet): void {
    for (const key of listKeys(pet)) this.#unlistFrom(key, pet.id);
  }

  #unlistFrom(key: string, id: number): void {
    const list = this.#lists.get(key);
    if (!list) return;
    const at = firstAfter(list, id - 1);
    if (list[at]?.id === id) list.splice(at, 1);
    if (list.length === 0 && key !== "") this.#lists.delete(key);
  }

  #listFor(key: string): Pet[] {
    let list = this.#lists.get(key);
    if (!list) this.#lists.set(key, (list = []));
    return list;
  }
}

/** A pet as the file holds it: the revision only when past 1, so unchanged pets are written as they are. */
export function toPetRecord({ pet, revision }: StoredPet): PetRecord {
  return revision === 1 ? pet : { ...pet, revision };
}

function listKey(status: string | undefined, categoryId: number | undefined): string {
  return `${status ?? ""}/${categoryId ?? ""}`.replace(/^\/$/, "");
}

function listKeys(pet: Pet): string[] {
  return ["", listKey(pet.status, undefined), listKey(undefined, pet.categoryId), listKey(pet.status, pet.categoryId)];
}

/** Inserts `pet` at its place by id: an append when it is the newest, as nearly always. */
function insertSorted(list: Pet[], pet: Pet): void {
  if ((list.at(-1)?.id ?? 0) < pet.id) list.push(pet);
  else list.splice(firstAfter(list, pet.id), 0, pet);
}

/** Index of the first pet whose id is greater than `afterId` (pets.length when none is). */
export function firstAfter(pets: readonly { id: number }[], afterId: number): number {
  let low = 0;
  let high = pets.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (pets[middle]!.id <= afterId) low = middle + 1;
    else high = middle;
  }
  return low;
}
