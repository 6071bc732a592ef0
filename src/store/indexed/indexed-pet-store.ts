import type { NewPet, Pet, PetStatus } from "../../contract/values.js";
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

/** The open order that holds a pet, staged ones included (see IndexedOrderStore). */
export type OpenOrderOf = (petId: number) => number | undefined;

/** Reads answer from the in-memory index; changes go through the group commit. */
export class IndexedPetStore implements PetStore {
  readonly #state: StoreState;
  readonly #commit: GroupCommit;
  readonly #openOrderOf: OpenOrderOf;
  // Changes staged but not yet durable, by id (null: deleted). Reads do not see them; the next
  // change of the same pet builds on them, so two updates in one batch both count.
  readonly #staged = new Map<number, StoredPet | null>();

  constructor(state: StoreState, commit: GroupCommit, openOrderOf: OpenOrderOf = () => undefined) {
    this.#state = state;
    this.#commit = commit;
    this.#openOrderOf = openOrderOf;
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

  listingVersion(): number {
    return this.#state.pets.version;
  }

  async countByStatus(): Promise<Record<PetStatus, number>> {
    return this.#state.pets.countByStatus();
  }

  // Checking and staging happen in one turn of the event loop, so no other change slips between.
  async update(id: number, patch: PetPatch, options: ChangeOptions = {}): Promise<UpdateOutcome> {
    const current = this.latest(id);
    if (!current) return { outcome: "not_found" };
    if (options.ifRevision !== undefined && options.ifRevision !== current.revision) {
      return { outcome: "precondition_failed", stored: current };
    }
    // Only orders move a held pet's status; its name and category stay the owner's to fix.
    const orderId = patch.status !== undefined && patch.status !== current.pet.status ? this.#openOrderOf(id) : undefined;
    if (orderId !== undefined) return { outcome: "has_open_order", orderId, stored: current };
    if (!changesPet(current.pet, patch)) return { outcome: "unchanged", stored: current };
    const stored = patchedPet(current, patch);
    await this.stageChange(id, stored, (batch) => batch.updated.set(id, stored));
    return { outcome: "updated", stored };
  }

  async delete(id: number, options: ChangeOptions = {}): Promise<DeleteOutcome> {
    const current = this.latest(id);
    if (!current) return "not_found";
    if (options.ifRevision !== undefined && options.ifRevision !== current.revision) return "precondition_failed";
    if (this.#openOrderOf(id) !== undefined) return "has_open_order";
    await this.stageChange(id, null, (batch) => {
      batch.updated.delete(id);
      batch.deleted.add(id);
    });
    return "deleted";
  }

  /** The pet as it will be once the changes staged so far are durable (the order store builds on it too). */
  latest(id: number): StoredPet | undefined {
    const staged = this.#staged.get(id);
    return staged === null ? undefined : (staged ?? this.#state.pets.get(id));
  }

  /** Stages `fill` with `change` as the pet's latest until it is durable or failed; the order store stages its pet changes here. */
  async stageChange(id: number, change: StoredPet | null, fill: Parameters<GroupCommit["stage"]>[0]): Promise<void> {
    this.#staged.set(id, change);
    try {
      await this.#commit.stage(fill);
    } finally {
      // Durable (now in the index) or failed (dropped): either way no longer pending, unless a later change is.
      if (this.#staged.get(id) === change) this.#staged.delete(id);
    }
  }
}
