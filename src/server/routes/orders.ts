// The Store group (beta): orders and the inventory (the operations of src/contract/operations/store.ts).
// The guard adds `X-API-Stability: beta` to every answer, since their route entries say `stability: "beta"`.
import type { H3Event } from "h3";
import { API_PREFIX, LIST_LIMIT_DEFAULT, type OrderStatus } from "../../contract/constants.js";
import type { STORE_ROUTES } from "../../contract/operations/store.js";
import { ORDER_TRANSITIONS } from "../../contract/order-transitions.js";
import { MERGE_PATCH_MEDIA_TYPES, type InputOf, type Route } from "../../contract/routes.js";
import { NewOrderSchema, OrderPatchSchema, type Order } from "../../contract/schemas.js";
import { describeIssue } from "../../contract/validation.js";
import type { OrderStore, StoredOrder } from "../../store/order-store.js";
import type { ChangeOptions } from "../../store/pet-store.js";
import { ApiHttpError, invalidBody, notFound } from "../errors.js";
import type { IdempotentCreates } from "../idempotency/idempotent-creates.js";
import { linkBase } from "../internal/public-url.js";
import { ifMatchRevisions, noneMatchFailed, noneMatchFails, noneMatchHits, orderEtag } from "../internal/etag.js";
import { readJsonBody } from "../internal/json-body.js";
import { encodeCursor } from "../../contract/cursor.js";
import { nextPageLink } from "../internal/next-page.js";
import type { HandlersFor } from "./register.js";

export interface StoreRoutesDeps {
  orders: OrderStore;
  creates: IdempotentCreates;
  now: () => number;
}

/** The handler of each operation of the Store tag. */
export function storeHandlers(deps: StoreRoutesDeps): HandlersFor<(typeof STORE_ROUTES)[number]> {
  const { orders, creates, now } = deps;
  return {
    listOrders: (event, input) => listOrders(event, input, orders),
    placeOrder: (event, input) => placeOrder(event, input, orders, creates, now),
    getOrder: (event, input) => getOrder(event, input, orders),
    updateOrder: (event, input) => updateOrder(event, input, orders, now),
    // From counts the store keeps, never a scan.
    getInventory: () => orders.inventory(),
  };
}

/** listOrders: GET /v1/store/orders, a page ordered by id, paginated exactly as listPets. */
async function listOrders(event: H3Event, { query }: InputOf<Route<"listOrders">>, orders: OrderStore): Promise<Order[]> {
  const { limit, status, petId, cursor: afterId } = query;
  const page = await orders.list({ status, petId, afterId, limit: limit ?? LIST_LIMIT_DEFAULT });
  const last = page.orders.at(-1);
  if (page.hasMore && last) event.res.headers.set("link", nextPageLink(linkBase(event) + event.url.pathname, { limit, status, petId }, encodeCursor(last.id)));
  return page.orders;
}

/**
 * placeOrder: POST /v1/store/orders; the order and its pet (now pending) in one durable step.
 * Idempotent with an Idempotency-Key, as createPet: a refusal (404, 409) stores nothing.
 */
async function placeOrder(
  event: H3Event,
  { headers }: InputOf<Route<"placeOrder">>,
  orders: OrderStore,
  creates: IdempotentCreates,
  now: () => number,
): Promise<Order> {
  const body = await readJsonBody(event);
  const parsed = NewOrderSchema.safeParse(body);
  if (!parsed.success) throw invalidBody(describeIssue(parsed.error));
  const { petId } = parsed.data;
  return creates.run<StoredOrder, Order>(
    event,
    { key: headers["Idempotency-Key"], body },
    async (options) => {
      const result = await orders.place({ petId, at: new Date(now()) }, options);
      if (result.outcome === "pet_not_found") throw notFound(`no pet with id ${petId}`);
      if (result.outcome === "pet_not_available") {
        throw new ApiHttpError("pet_not_available", `pet ${petId} is ${result.petStatus}, not available: it cannot be ordered`);
      }
      return result.stored;
    },
    (stored) => ({
      status: 201,
      headers: { location: `${API_PREFIX}/store/orders/${stored.order.id}`, etag: orderEtag(stored) },
      body: stored.order,
    }),
  );
}

/** getOrder: GET /v1/store/orders/{orderId}; 304 without a body when If-None-Match names its ETag, as getPet. */
async function getOrder(event: H3Event, { path, headers }: InputOf<Route<"getOrder">>, orders: OrderStore): Promise<Order | null> {
  const stored = await orders.get(path.orderId);
  if (!stored) throw notFound(`no order with id ${path.orderId}`);
  const order = withEtag(event, stored);
  if (!noneMatchHits(headers["If-None-Match"], orderEtag(stored))) return order;
  event.res.status = 304;
  return null;
}

/** updateOrder: PATCH /v1/store/orders/{orderId} {status}; delivered sells the pet, cancelled frees it. */
async function updateOrder(event: H3Event, { path, headers }: InputOf<Route<"updateOrder">>, orders: OrderStore, now: () => number): Promise<Order> {
  const id = path.orderId;
  const parsed = OrderPatchSchema.safeParse(await readJsonBody(event, MERGE_PATCH_MEDIA_TYPES));
  if (!parsed.success) throw invalidBody(describeIssue(parsed.error));
  const to = parsed.data.status;
  // If-None-Match on a change (RFC 9110 13.1.2): 412 when it names the order as it is.
  const noneMatch = event.req.headers.get("if-none-match");
  const stored = noneMatch === null ? undefined : await orders.get(id);
  if (stored && noneMatchFails(noneMatch, orderEtag(stored))) throw noneMatchFailed(`order ${id}`, noneMatch!);
  const result = await orders.transition(id, to, new Date(now()), conditionOf(headers["If-Match"], id));
  if (result.outcome === "not_found") throw notFound(`no order with id ${id}`);
  if (result.outcome === "precondition_failed") {
    throw new ApiHttpError("precondition_failed", `order ${id} has changed since the ETag in If-Match: nothing was changed; read it again`);
  }
  if (result.outcome === "invalid_transition") throw invalidTransition(id, result.stored.order.status, to);
  return withEtag(event, result.stored);
}

function withEtag(event: H3Event, stored: StoredOrder): Order {
  event.res.headers.set("etag", orderEtag(stored));
  return stored.order;
}

/**
 * If-Match as the revision the store checks in the same step as the change; with several tags
 * none of which can be current the store is told revision 0, which never is.
 */
function conditionOf(ifMatch: string | undefined, id: number): ChangeOptions {
  const revisions = ifMatchRevisions(ifMatch, id, "order");
  if (revisions === undefined) return {};
  // Revisions only grow: of several tags only the newest can still be current.
  return { ifRevision: revisions.length === 0 ? 0 : Math.max(...revisions) };
}

function invalidTransition(id: number, from: OrderStatus, to: OrderStatus): ApiHttpError {
  const next = ORDER_TRANSITIONS[from];
  const allowed = next.length === 0 ? `${from} is final` : `from ${from} it can go to ${next.join(" or ")}`;
  return new ApiHttpError("invalid_transition", `order ${id} cannot go from ${from} to ${to}: ${allowed}`);
}
