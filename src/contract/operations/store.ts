// The Store tag (beta): orders that move a pet from available to sold, and the inventory.
// Handlers: src/server/routes/orders.ts.
import { componentRef } from "../components.js";
import { entityTags, pageCursor, pageLimit, positiveId, statusFilter } from "../parameters.js";
import type { RouteEntry } from "../route-types.js";
import { InventorySchema, NewOrderSchema, OrderPatchSchema, OrderSchema, OrdersSchema, OrderStatusSchema } from "../schemas.js";
import { IDEMPOTENCY_KEY, IF_NONE_MATCH, MERGE_PATCH_MEDIA_TYPES } from "./shared.js";

const ORDER_ID = { orderId: positiveId().describe("The order's id.") };
const IF_MATCH = entityTags().describe(
  "The order's ETag as you last read it: 412 precondition_failed, changing nothing, when it has changed since.",
);
const BETA_TEXT = "Beta: the Store group may still change within v1; every answer carries `X-API-Stability: beta`.";

export const STORE_ROUTES = [
  {
    operationId: "listOrders",
    method: "GET",
    path: "/store/orders",
    access: "key",
    scope: "orders:read",
    stability: "beta",
    request: {
      query: {
        limit: pageLimit().describe("Maximum number of orders to return."),
        status: statusFilter(OrderStatusSchema).describe("Only orders with this status."),
        petId: positiveId().describe("Only orders for this pet; combines with status."),
        cursor: pageCursor().describe("Opaque: take it from the `Link` of the previous page."),
      },
    },
    doc: {
      tag: "store",
      summary: "List orders, a page at a time (beta)",
      description: `${BETA_TEXT} Orders ordered by id, filtered by status and/or pet, paginated as GET /pets is.`,
      success: { status: 200, description: "A page of orders.", schema: componentRef(OrdersSchema), headers: ["Link-Next"] },
          },
  },
  {
    operationId: "placeOrder",
    method: "POST",
    path: "/store/orders",
    access: "key",
    scope: "orders:write",
    stability: "beta",
    request: { body: NewOrderSchema, headers: { "Idempotency-Key": IDEMPOTENCY_KEY } },
    doc: {
      tag: "store",
      summary: "Order a pet (beta)",
      description:
        `${BETA_TEXT} The pet must exist (404) and be available (409 pet_not_available). In one durable step ` +
        "the order is created (placed) and the pet becomes pending; of concurrent orders for one pet exactly one succeeds. " +
        "With an Idempotency-Key, a retry gets the first answer again instead of a second order.",
      success: { status: 201, description: "The order.", schema: componentRef(OrderSchema), headers: ["Location", "ETag", "Idempotent-Replayed"] },
      // One response per status: the 409 is either the pet's or the Idempotency-Key's.
      errors: ["NotFound", "PetNotAvailableOrKeyInProgress", "IdempotencyKeyReused"],
    },
  },
  {
    operationId: "getOrder",
    method: "GET",
    path: "/store/orders/{orderId}",
    access: "key",
    scope: "orders:read",
    stability: "beta",
    request: { path: ORDER_ID, headers: { "If-None-Match": IF_NONE_MATCH } },
    doc: {
      tag: "store",
      summary: "Get an order by id (beta)",
      description: BETA_TEXT,
      success: { status: 200, description: "The order.", schema: componentRef(OrderSchema), headers: ["ETag"], notModified: true },
      errors: ["NotFound"],
    },
  },
  {
    operationId: "updateOrder",
    method: "PATCH",
    path: "/store/orders/{orderId}",
    access: "key",
    scope: "orders:write",
    stability: "beta",
    request: { path: ORDER_ID, headers: { "If-Match": IF_MATCH }, body: OrderPatchSchema, mediaTypes: MERGE_PATCH_MEDIA_TYPES },
    doc: {
      tag: "store",
      summary: "Move an order on: approve, deliver or cancel it (beta)",
      description:
        `${BETA_TEXT} placed -> approved -> delivered, placed | approved -> cancelled; any other is 409 invalid_transition. ` +
        "delivered makes the pet sold, cancelled makes it available again, in the same durable step as the order's change.",
      success: { status: 200, description: "The order, as updated.", schema: componentRef(OrderSchema), headers: ["ETag"] },
      errors: ["NotFound", "PreconditionFailed", "InvalidTransition"],
    },
  },
  {
    operationId: "getInventory",
    method: "GET",
    path: "/store/inventory",
    access: "key",
    scope: "pets:read",
    stability: "beta",
    doc: {
      tag: "store",
      summary: "How many pets have each status (beta)",
      description: `${BETA_TEXT} Counted as changes are made, never by reading every pet; exact at the instant it answers.`,
      success: { status: 200, description: "The counts.", schema: componentRef(InventorySchema) },
    },
  },
] as const satisfies readonly RouteEntry[];
