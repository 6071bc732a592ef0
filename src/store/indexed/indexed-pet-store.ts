import type { NewPet, Pet } from "../../contract/values.js";
import {
  changesPet,
  type ChangeOptions,
  type DeleteOutcome,
  type ListPetsQuery,
  type PetPage,
  type PetPatch,
  type PetStore,
  type StoredPet,
  type UpdateOutcome,
} from "../pet-store.js";
import type { CreateOptions } from "../idempotency-store.js";
import type { GroupCommit } from "./group-commit.js";
import { stageCreate } from "./stage-create.js";
import { newPet, patchedPet } from "./records.js";
import type { StoreState } from "./store-state.js";

/** Reads answer from the in-memory index; changes go through the group commit. */
export class IndexedPetStore implements PetStore {
  readonly #state: StoreState;
  readonly #commit: GroupCommit;
  // Changes staged but not yet durable, by id (null: deleted). Reads do not see them; the next
  // change of the same pet builds on them, so two updates in one batch both count.
  readonly #staged = new Map<number, StoredPet | null>();

  constructor(state: StoreState, commit: GroupCommit) {
    this.#state = state;
    this.#commit = commit;
  }

  async create(input: Required<NewPet>, options: CreateOptions<Pet> = {}): Promise<Pet> {
    return stageCreate(this.#state, this.#commit, options, () => newPet(this.#state.takePetId(), input), (batch, pet) => batch.pets.push(pet));
  }

  async get(id: number): Promise<StoredPet | undefined> {
    return this.#state.pets.get(id);
  }

  async list(query: ListPetsQuery): Promise<PetPage> {
    return this.#state.pets.list(query);
  }

  // Checking and staging happen in one turn of the event loop, so no other change slips between.
  async update(id: number, patch: PetPatch, options: ChangeOptions = {}): Promise<UpdateOutcome> {
    const current = this.#latest(id);
    if (!current) return { outcome: "not_found" };
    if (options.ifRevision !== undefined && options.ifRevision !== current.revision) {
      return { outcome: "precondition_failed", stored: current };
    }
    if (!changesPet(current.pet, patch)) return { outcome: "unchanged", stored: current };
    const stored = patchedPet(current, patch);
    await this.#stage(id, stored, (batch) => batch.updated.set(id, stored));
    return { outcome: "updated", stored };
  }

  async delete(id: number, options: ChangeOptions = {}): Promise<DeleteOutcome> {
    const current = this.#latest(id);
    if (!current) return "not_found";
    if (options.ifRevision !== undefined && options.ifRevision !== current.revision) return "precondition_failed";
    await this.#stage(id, null, (batch) => {
      batch.updated.delete(id);
      batch.deleted.add(id);
    });
    return "deleted";
  }

  #latest(id: number): StoredPet | undefined {
    const staged = this.#staged.get(id);
    return staged === null ? undefined : (staged ?? this.#state.pets.get(id));
  }

  async #stage(id: number, change: StoredPet | null, fill: Parameters<GroupCommit["stage"]>[0]): Promise<void> {
    this.#staged.set(id, change);
    try {
      await this.#commit.stage(fill);
    } finally {
      // Durable (now in the index) or failed (dropped): either way no longer pending, unless a later change is.
      if (this.#staged.get(id) === change) this.#staged.delete(id);
    }
  }
}
