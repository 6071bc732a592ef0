import * as z from "zod";
import { OrderSchema } from "../../contract/schemas.js";
import type { Order, OrderStatus } from "../../contract/values.js";
import type { StoredOrder } from "../order-store.js";
import { firstIssue } from "./records.js";

/** An order in the db file and the journal: `revision` only once past 1, as for pets. */
export const OrderRecordSchema = OrderSchema.extend({ revision: z.int().min(2).optional() });
export type OrderRecord = z.infer<typeof OrderRecordSchema>;

export function toStoredOrder(record: OrderRecord): StoredOrder {
  const { revision = 1, ...order } = record;
  return { order: Object.freeze(order), revision };
}

export function toOrderRecord({ order, revision }: StoredOrder): OrderRecord {
  return revision === 1 ? order : { ...order, revision };
}

/** A placed order, checked as the file will be, so that what is written can be loaded again. */
export function newOrder(id: number, petId: number, at: Date): StoredOrder {
  const instant = at.toISOString();
  return { order: checked({ id, petId, status: "placed", createdAt: instant, updatedAt: instant }), revision: 1 };
}

/** The order moved to `status` at `at`, at the next revision. */
export function movedOrder(stored: StoredOrder, status: OrderStatus, at: Date): StoredOrder {
  return { order: checked({ ...stored.order, status, updatedAt: at.toISOString() }), revision: stored.revision + 1 };
}

function checked(order: Order): Order {
  const result = OrderSchema.safeParse(order);
  if (!result.success) throw new TypeError(`invalid order: ${firstIssue(result.error)}`);
  return Object.freeze(result.data);
}
