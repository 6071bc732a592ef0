// The order state machine, once: the server refuses what it does not list, the client names the
// verbs after it, and the document describes it.
import type { OrderStatus, PetStatus } from "./constants.js";

/** Where each status may go next. delivered and cancelled are final. */
export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  placed: ["approved", "cancelled"],
  approved: ["delivered", "cancelled"],
  delivered: [],
  cancelled: [],
};

/** What a transition into this status does to the order's pet, in the same durable step. */
export const PET_STATUS_AFTER: Readonly<Partial<Record<OrderStatus, PetStatus>>> = {
  placed: "pending",
  delivered: "sold",
  cancelled: "available",
};

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_TRANSITIONS[from].includes(to);
}

/** The statuses an order must be in to move to `to` (empty: nothing moves there). */
export function transitionSources(to: OrderStatus): OrderStatus[] {
  return (Object.keys(ORDER_TRANSITIONS) as OrderStatus[]).filter((from) => canTransition(from, to));
}
