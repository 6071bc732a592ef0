import { PET_STATUSES, type Pet, type PetStatus } from "../../contract/values.js";
import type { ListPetsQuery, PetPage } from "../pet-store.js";

/**
 * Committed pets, indexed so that a page costs a binary search and a slice, never a scan.
 * Ids only grow, so appending keeps every array sorted by id.
 */
export class PetIndex {
  readonly #all: Pet[] = [];
  readonly #byId = new Map<number, Pet>();
  readonly #byStatus = Object.fromEntries(PET_STATUSES.map((status) => [status, [] as Pet[]])) as Record<
    PetStatus,
    Pet[]
  >;

  /** Appends pets whose ids are all greater than every id already held. */
  append(pets: readonly Pet[]): void {
    for (const pet of pets) {
      this.#all.push(pet);
      this.#byId.set(pet.id, pet);
      this.#byStatus[pet.status].push(pet);
    }
  }

  get(id: number): Pet | undefined {
    return this.#byId.get(id);
  }

  list({ status, afterId = 0, limit }: ListPetsQuery): PetPage {
    const pets = status ? this.#byStatus[status] : this.#all;
    const start = firstAfter(pets, afterId);
    const end = start + Math.max(0, limit);
    return { pets: pets.slice(start, end), hasMore: end < pets.length };
  }

  get size(): number {
    return this.#all.length;
  }

  get lastId(): number {
    return this.#all.at(-1)?.id ?? 0;
  }

  /** The committed pets followed by `extra`: a new array, the index is not changed. */
  concat(extra: readonly Pet[]): Pet[] {
    return this.#all.concat(extra);
  }
}

/** Index of the first pet whose id is greater than `afterId` (pets.length when none is). */
export function firstAfter(pets: readonly Pet[], afterId: number): number {
  let low = 0;
  let high = pets.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (pets[middle]!.id <= afterId) low = middle + 1;
    else high = middle;
  }
  return low;
}
