import { canTransition, PET_STATUS_AFTER } from "../../contract/order-transitions.js";
import { OPEN_ORDER_STATUSES, type Inventory, type OrderStatus } from "../../contract/values.js";
import type {
  ListOrdersQuery,
  NewOrderInput,
  OrderPage,
  OrderStore,
  PlaceOptions,
  PlaceOutcome,
  StoredOrder,
  TransitionOutcome,
} from "../order-store.js";
import { recordOf } from "../idempotency-store.js";
import type { ChangeOptions } from "../pet-store.js";
import type { Batch } from "./store-state.js";
import type { GroupCommit } from "./group-commit.js";
import type { IndexedPetStore } from "./indexed-pet-store.js";
import { movedOrder, newOrder } from "./order-records.js";
import { patchedPet } from "./records.js";
import type { StoreState } from "./store-state.js";

/**
 * Orders over the same state and group commit as the pets. A place or a transition checks the
 * pet as staged (not only as committed) and stages the order and the pet's change with one
 * `stage` call, in the same turn of the event loop: they land in the same batch, so on one
 * journal line, and no other change can slip between the check and the stage. Of 50 orders for
 * one pet at once, the first stages the pet as pending and the 49 others see it so.
 */
export class IndexedOrderStore implements OrderStore {
  readonly #state: StoreState;
  readonly #commit: GroupCommit;
  readonly #pets: IndexedPetStore;
  readonly #staged = new Map<number, StoredOrder>();

  constructor(state: StoreState, commit: GroupCommit, pets: IndexedPetStore) {
    this.#state = state;
    this.#commit = commit;
    this.#pets = pets;
  }

  async place({ petId, at }: NewOrderInput, options: PlaceOptions = {}): Promise<PlaceOutcome> {
    const write = options.idempotency;
    // Claimed before anything else, so a second place with this id while this one is staged is refused.
    if (write) this.#state.idempotency.claim(write.id, Date.parse(write.createdAt));
    try {
      const pet = this.#pets.latest(petId);
      if (!pet) return { outcome: "pet_not_found" };
      if (pet.pet.status !== "available") return { outcome: "pet_not_available", petStatus: pet.pet.status };
      const stored = newOrder(this.#state.takeOrderId(), petId, at);
      const held = patchedPet(pet, { status: "pending" });
      const record = write && recordOf(write, stored);
      await this.#stage(stored, () =>
        this.#pets.stageChange(petId, held, (batch) => {
          fillBoth(batch, stored, petId, held);
          if (record) batch.idempotency.push(record);
        }),
      );
      return { outcome: "placed", stored };
    } finally {
      if (write) this.#state.idempotency.release(write.id);
    }
  }

  async get(id: number): Promise<StoredOrder | undefined> {
    return this.#state.orders.get(id);
  }

  async list(query: ListOrdersQuery): Promise<OrderPage> {
    return this.#state.orders.list(query);
  }

  async transition(id: number, to: OrderStatus, at: Date, options: ChangeOptions = {}): Promise<TransitionOutcome> {
    const current = this.#latest(id);
    if (!current) return { outcome: "not_found" };
    if (options.ifRevision !== undefined && options.ifRevision !== current.revision) {
      return { outcome: "precondition_failed", stored: current };
    }
    if (!canTransition(current.order.status, to)) return { outcome: "invalid_transition", stored: current };
    const stored = movedOrder(current, to, at);
    const petStatus = PET_STATUS_AFTER[to];
    const petId = current.order.petId;
    // An open order keeps its pet from being deleted, so the pet is there; the guard is for files edited by hand.
    const pet = petStatus === undefined ? undefined : this.#pets.latest(petId);
    const held = pet && petStatus ? patchedPet(pet, { status: petStatus }) : undefined;
    await this.#stage(stored, () =>
      held
        ? this.#pets.stageChange(petId, held, (batch) => fillBoth(batch, stored, petId, held))
        : this.#commit.stage((batch) => batch.orders.set(id, stored)),
    );
    return { outcome: "updated", stored };
  }

  async openOrderOf(petId: number): Promise<number | undefined> {
    return this.openOrderNow(petId);
  }

  /** The pet's open order, staged changes included: what the pet store checks before a status change or a delete. */
  openOrderNow(petId: number): number | undefined {
    let open = this.#state.orders.openOrderOf(petId);
    for (const { order } of this.#staged.values()) {
      if (order.petId !== petId) continue;
      if (OPEN_ORDER_STATUSES.includes(order.status)) return order.id;
      if (order.id === open) open = undefined;
    }
    return open;
  }

  async inventory(): Promise<Inventory> {
    const pets = this.#state.pets;
    return { available: pets.count("available"), pending: pets.count("pending"), sold: pets.count("sold") };
  }

  #latest(id: number): StoredOrder | undefined {
    return this.#staged.get(id) ?? this.#state.orders.get(id);
  }

  async #stage(stored: StoredOrder, stage: () => Promise<void>): Promise<void> {
    const id = stored.order.id;
    this.#staged.set(id, stored);
    try {
      await stage();
    } finally {
      if (this.#staged.get(id) === stored) this.#staged.delete(id);
    }
  }
}

function fillBoth(batch: Batch, stored: StoredOrder, petId: number, held: Parameters<Batch["updated"]["set"]>[1]): void {
  batch.orders.set(stored.order.id, stored);
  batch.updated.set(petId, held);
}
