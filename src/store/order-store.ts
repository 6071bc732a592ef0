import type { Inventory, Order, OrderStatus, PetStatus } from "../contract/values.js";
import type { CreateOptions } from "./idempotency-store.js";
import type { ChangeOptions } from "./pet-store.js";

/** An order with its revision: 1 when placed, one more with every transition. What its ETag is made of. */
export interface StoredOrder {
  order: Order;
  revision: number;
}

export interface ListOrdersQuery {
  status?: OrderStatus;
  petId?: number;
  /** Only orders with an id greater than this (the decoded cursor). */
  afterId?: number;
  limit: number;
}

export interface OrderPage {
  orders: Order[];
  /** True when more orders match after the last one returned. */
  hasMore: boolean;
}

export interface NewOrderInput {
  petId: number;
  /** createdAt and updatedAt: the caller's clock, so tests choose it. */
  at: Date;
}

/** Options of a place: with `idempotency`, its record is written in the same durable step as the order. */
export type PlaceOptions = CreateOptions<StoredOrder>;

export type PlaceOutcome =
  | { outcome: "placed"; stored: StoredOrder }
  | { outcome: "pet_not_found" }
  /** The pet is pending or sold (an open order holds it, or it was sold). */
  | { outcome: "pet_not_available"; petStatus: PetStatus };

export type TransitionOutcome =
  | { outcome: "updated"; stored: StoredOrder }
  | { outcome: "not_found" }
  | { outcome: "precondition_failed"; stored: StoredOrder }
  | { outcome: "invalid_transition"; stored: StoredOrder };

/**
 * Where orders live, beside the pets of the same engine: a place or a transition changes the
 * order and its pet in one durable step (one journal line, one PostgreSQL transaction), so no
 * crash ever leaves one without the other. Ids are never reused.
 */
export interface OrderStore {
  /**
   * With `options.idempotency`, the record of the answer is written in the same durable step;
   * IdempotencyKeyTakenError (nothing placed) when that id already has a live one.
   */
  place(input: NewOrderInput, options?: PlaceOptions): Promise<PlaceOutcome>;
  get(id: number): Promise<StoredOrder | undefined>;
  list(query: ListOrdersQuery): Promise<OrderPage>;
  transition(id: number, to: OrderStatus, at: Date, options?: ChangeOptions): Promise<TransitionOutcome>;
  /** The id of the pet's open (placed or approved) order, if it has one. */
  openOrderOf(petId: number): Promise<number | undefined>;
  /** Pets per status, from counts kept as pets change: never a scan. */
  inventory(): Promise<Inventory>;
}
