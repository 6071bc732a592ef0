import type { NewPet, Pet } from "../../contract/values.js";
import type { ListPetsQuery, PetPage, PetStore } from "../pet-store.js";
import type { GroupCommit } from "./group-commit.js";
import { newPet } from "./records.js";
import type { StoreState } from "./store-state.js";

/** Reads answer from the in-memory index; creates go through the group commit. */
export class IndexedPetStore implements PetStore {
  readonly #state: StoreState;
  readonly #commit: GroupCommit;

  constructor(state: StoreState, commit: GroupCommit) {
    this.#state = state;
    this.#commit = commit;
  }

  async create(input: Required<NewPet>): Promise<Pet> {
    const pet = newPet(this.#state.takePetId(), input);
    await this.#commit.stage((batch) => batch.pets.push(pet));
    return pet;
  }

  async get(id: number): Promise<Pet | undefined> {
    return this.#state.pets.get(id);
  }

  async list(query: ListPetsQuery): Promise<PetPage> {
    return this.#state.pets.list(query);
  }
}
