import type { Pet } from "../../contract/values.js";
import type { KeyRecord } from "../key-store.js";
import { KeyIndex } from "./key-index.js";
import { PetIndex } from "./pet-index.js";

/** Everything a store holds, as it is written to the db file. */
export interface StoreData {
  version: 1;
  nextPetId: number;
  /** Sorted by id. */
  pets: Pet[];
  keys: KeyRecord[];
}

/** The changes that one group commit makes durable together. */
export interface Batch {
  pets: Pet[];
  keys: KeyRecord[];
  /** Key id to revokedAt. */
  revocations: Map<string, string>;
}

export function emptyBatch(): Batch {
  return { pets: [], keys: [], revocations: new Map() };
}

export function emptyStoreData(): StoreData {
  return { version: 1, nextPetId: 1, pets: [], keys: [] };
}

/** The committed (durable) state, plus the id counter, which runs ahead of it. */
export class StoreState {
  readonly pets = new PetIndex();
  readonly keys = new KeyIndex();
  #nextPetId: number;

  /** `data` must be valid: pets sorted by unique id, keys with unique ids and hashes. */
  constructor(data: StoreData = emptyStoreData()) {
    this.pets.append(data.pets);
    this.keys.add(data.keys);
    this.#nextPetId = Math.max(data.nextPetId, this.pets.lastId + 1);
  }

  get nextPetId(): number {
    return this.#nextPetId;
  }

  /** Hands out the next id. An id given to a batch that fails is skipped, never reused. */
  takePetId(): number {
    return this.#nextPetId++;
  }

  /** The data as it will be once `batch` is applied; the state itself is not changed. */
  snapshot(batch: Batch): StoreData {
    return {
      version: 1,
      nextPetId: this.#nextPetId,
      pets: this.pets.concat(batch.pets),
      keys: this.keys.concat(batch.revocations, batch.keys),
    };
  }

  /** Makes a durable batch visible. */
  apply(batch: Batch): void {
    this.pets.append(batch.pets);
    this.keys.add(batch.keys);
    this.keys.revoke(batch.revocations);
  }
}
