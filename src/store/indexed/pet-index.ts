import { DEFAULT_PET_SORT, foldName } from "../../contract/name-search.js";
import { PET_STATUSES, type Pet, type PetStatus } from "../../contract/values.js";
import type { ListPetsQuery, PetPage, StoredPet } from "../pet-store.js";
import { NameGrams } from "./name-grams.js";
import { NameOrders } from "./name-orders.js";
import { findPets, firstAfter } from "./pet-search.js";
import type { PetRecord } from "./records.js";

export { firstAfter } from "./pet-search.js";

// One sequence for every index in the process: a version is never shared by two states, even
// when an index is replaced by a new one (an import) or two stores live side by side (tests).
let lastVersion = 0;
// From this many pets, an empty index is filled in one go: name orders built with one sort.
const BULK_LOAD = 1_000;
const takeVersion = () => ++lastVersion;

/**
 * Committed pets, indexed so that a page costs a binary search and a slice, never a scan: one
 * id-sorted list of all pets, one per status, one per category and one per (status, category),
 * so a filtered page only ever looks at pets inside its filter. The same lists in name order,
 * and the trigrams of the names, serve sort=name and q (see pet-search.ts).
 */
export class PetIndex {
  // Each pet is held once, by id in a plain array (ids are dense integers: a slot a pet, where a
  // Map entry and a {pet, revision} wrapper cost many times that), and its revision only once
  // past 1: the resident memory at many pets showed these as the index's own cost.
  readonly #byId: (Pet | undefined)[];
  readonly #revisions: Map<number, number>;
  readonly #lists: Map<string, Pet[]>;
  // Each pet's folded name, only where it is not simply its name in lower case (an ASCII name's
  // never is): at a million pets, a string each would cost some 40 MB.
  readonly #keys: (string | undefined)[];
  readonly #grams: NameGrams;
  readonly #keyOf = (pet: Pet): string => this.#keys[pet.id] ?? pet.name.toLowerCase();
  readonly #names: NameOrders;
  #size = 0;
  #lastId = 0;
  #version = takeVersion();

  /** An empty index, or a copy of `from` that shares nothing it changes (pets are frozen, so shared). */
  constructor(from?: PetIndex) {
    const nameOf = (id: number) => this.#keyOf(this.#byId[id]!);
    this.#byId = from ? from.#byId.slice() : [];
    this.#revisions = new Map(from && from.#revisions);
    this.#lists = from ? new Map([...from.#lists].map(([key, pets]) => [key, pets.slice()])) : new Map([["", []]]);
    this.#keys = from ? from.#keys.slice() : [];
    this.#grams = from ? from.#grams.copy() : new NameGrams();
    this.#names = from ? from.#names.copy(nameOf) : new NameOrders(nameOf);
    if (!from) return;
    this.#size = from.#size;
    this.#lastId = from.#lastId;
  }

  /**
   * A copy to change on its own, with a version of its own: far cheaper than indexing the same
   * pets again (no names folded, split into trigrams or sorted), which is what a reset to a seed needs.
   */
  copy(): PetIndex {
    return new PetIndex(this);
  }

  /** Adds or replaces pets (a replaced pet moves to the lists of its new status and category). */
  put(records: readonly StoredPet[]): void {
    if (records.length === 0) return;
    this.#version = takeVersion();
    if (this.#size === 0 && records.length >= BULK_LOAD && idsAscend(records)) return this.#load(records);
    for (const { pet, revision } of records) {
      const held = this.#byId[pet.id];
      const folded = foldName(pet.name);
      const renamed = this.#leave(held, pet, folded);
      this.#byId[pet.id] = pet;
      this.#keys[pet.id] = folded === pet.name.toLowerCase() ? undefined : folded;
      if (revision > 1) this.#revisions.set(pet.id, revision);
      else this.#revisions.delete(pet.id);
      if (held) this.#relist(held, pet);
      else {
        this.#size++;
        for (const key of listKeys(pet)) insertSorted(this.#listFor(key), pet);
      }
      this.#join(held, pet, folded, renamed);
      this.#lastId = Math.max(this.#lastId, pet.id);
    }
  }

  /** Removes the pets with these ids; unknown ids are skipped. */
  remove(ids: Iterable<number>): void {
    for (const id of ids) {
      const held = this.#byId[id];
      if (!held) continue;
      this.#version = takeVersion();
      // Out of the name orders while the index still holds the name they are ordered by.
      this.#names.remove(listKeys(held), id);
      this.#grams.remove(id, this.#keyOf(held));
      this.#byId[id] = undefined;
      this.#keys[id] = undefined;
      this.#revisions.delete(id);
      this.#size--;
      this.#unlist(held);
    }
  }

  get(id: number): StoredPet | undefined {
    const pet = Number.isSafeInteger(id) && id > 0 ? this.#byId[id] : undefined;
    return pet && { pet, revision: this.#revisionOf(id) };
  }

  list(query: ListPetsQuery): PetPage {
    const { status, categoryId, limit } = query;
    const key = listKey(status, categoryId);
    const pets = this.#lists.get(key) ?? [];
    const sort = query.sort ?? DEFAULT_PET_SORT;
    if (query.search === undefined && sort === "id") {
      const start = firstAfter(pets, query.afterId ?? 0);
      const end = start + Math.max(0, limit);
      const page = pets.slice(start, end);
      return { pets: page, revisions: page.map((pet) => this.#revisionOf(pet.id)), hasMore: end < pets.length };
    }
    const sources = {
      byId: pets,
      byName: this.#names.list(key),
      grams: this.#grams,
      petOf: (id: number) => this.#byId[id],
      keyOf: this.#keyOf,
      inFilter: (pet: Pet) => (status === undefined || pet.status === status) && (categoryId === undefined || pet.categoryId === categoryId),
    };
    const window = { sort, afterId: query.afterId, afterName: query.afterName, take: Math.max(0, limit) + 1 };
    const found = findPets(sources, window, query.search === undefined ? undefined : foldName(query.search));
    const page = found.slice(0, Math.max(0, limit));
    return { pets: page, revisions: page.map((pet) => this.#revisionOf(pet.id)), hasMore: found.length > page.length };
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

  /**
   * Before `pet` replaces `held`: out of the name orders it leaves (all of them when its folded
   * name changes) and of its old trigrams, while the index still holds the old name. True when renamed.
   */
  #leave(held: Pet | undefined, pet: Pet, folded: string): boolean {
    if (!held) return false;
    const before = this.#keyOf(held);
    const heldKeys = listKeys(held);
    if (before !== folded) {
      this.#names.remove(heldKeys, held.id);
      this.#grams.remove(held.id, before);
      return true;
    }
    const keys = listKeys(pet);
    this.#names.remove(heldKeys.filter((key, i) => key !== keys[i]), held.id);
    return false;
  }

  /** Once `pet` is held: into the name orders and trigrams #leave took it out of (all, for a new pet). */
  #join(held: Pet | undefined, pet: Pet, folded: string, renamed: boolean): void {
    const keys = listKeys(pet);
    if (!held || renamed) {
      this.#names.add(keys, pet.id);
      this.#grams.add(pet.id, folded);
      return;
    }
    const heldKeys = listKeys(held);
    this.#names.add(keys.filter((key, i) => key !== heldKeys[i]), pet.id);
  }

  /** The first fill of an empty index (a start, an import): each list built once, name orders with one sort. */
  #load(records: readonly StoredPet[]): void {
    const folded: string[] = [];
    for (const { pet, revision } of records) {
      this.#byId[pet.id] = pet;
      if (revision > 1) this.#revisions.set(pet.id, revision);
      this.#size++;
      this.#lastId = Math.max(this.#lastId, pet.id);
      for (const key of listKeys(pet)) insertSorted(this.#listFor(key), pet);
      const key = foldName(pet.name);
      if (key !== pet.name.toLowerCase()) this.#keys[pet.id] = key;
      this.#grams.push(pet.id, key);
      folded.push(key);
    }
    this.#names.load(this.#lists.get("")!, folded, listKey);
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

function idsAscend(records: readonly StoredPet[]): boolean {
  for (let i = 1; i < records.length; i++) if (records[i]!.pet.id <= records[i - 1]!.pet.id) return false;
  return true;
}

/** A pet as the file holds it: the revision only when past 1, so unchanged pets are written as they are. */
export function toPetRecord({ pet, revision }: StoredPet): PetRecord {
  return revision === 1 ? pet : { ...pet, revision };
}

/** "" for all pets, "sold/" for a status, "/3" for a category, "sold/3" for both (no regex: it runs for each pet at a start). */
function listKey(status: string | undefined, categoryId: number | undefined): string {
  if (status === undefined) return categoryId === undefined ? "" : `/${categoryId}`;
  return categoryId === undefined ? `${status}/` : `${status}/${categoryId}`;
}

function listKeys(pet: Pet): string[] {
  return ["", listKey(pet.status, undefined), listKey(undefined, pet.categoryId), listKey(pet.status, pet.categoryId)];
}

/** Inserts `pet` at its place by id: an append when it is the newest, as nearly always. */
function insertSorted(list: Pet[], pet: Pet): void {
  if ((list.at(-1)?.id ?? 0) < pet.id) list.push(pet);
  else list.splice(firstAfter(list, pet.id), 0, pet);
}
