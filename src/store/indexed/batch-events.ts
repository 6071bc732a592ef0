import type { EventType, StoreEvent } from "../../contract/events.js";
import type { Batch } from "./store-state.js";

/**
 * The events of one durable batch, numbered from `afterId + 1`. Within a batch the changes
 * became durable together; they are listed creates, updates, orders, deletes, so that a pet's
 * order follows the pet, then the endpoints' own (webhook.disabled). Two updates of one pet in
 * one batch are one record after the change, so one event.
 */
export function batchEvents(batch: Batch, afterId: number, at: string): StoreEvent[] {
  const changes: [EventType, Record<string, unknown>][] = [];
  for (const pet of batch.pets) changes.push(["pet.created", { ...pet }]);
  for (const { pet } of batch.updated.values()) changes.push(["pet.updated", { ...pet }]);
  for (const { order, revision } of batch.orders.values()) changes.push([revision === 1 ? "order.created" : "order.updated", { ...order }]);
  for (const id of batch.deleted) changes.push(["pet.deleted", { id }]);
  for (const { type, data } of batch.webhookEvents) changes.push([type, data]);
  return changes.map(([type, data], index) => ({ type, id: afterId + index + 1, at, data }));
}
