// The Store group (beta): orders and the inventory. The guard adds `X-API-Stability: beta` to
// every answer, since their route entries say `stability: "beta"`.
import type { H3Event } from "h3";
import { API_PREFIX, isOrderStatus, ORDER_STATUSES, type OrderStatus } from "../../contract/constants.js";
import { ORDER_TRANSITIONS } from "../../contract/order-transitions.js";
import { MERGE_PATCH_MEDIA_TYPES, queryParameters } from "../../contract/routes.js";
import { NewOrderSchema, OrderPatchSchema, type Inventory, type Order } from "../../contract/schemas.js";
import { describeIssue } from "../../contract/validation.js";
import type { OrderStore, StoredOrder } from "../../store/order-store.js";
import type { ChangeOptions } from "../../store/pet-store.js";
import { ApiHttpError, invalidBody, invalidParameter, notFound } from "../errors.js";
import type { IdempotentCreates } from "../idempotency/idempotent-creates.js";
import { encodeCursor } from "../internal/cursor.js";
import { linkBase } from "../internal/public-url.js";
import { ifMatchRevisions, noneMatchFailed, noneMatchFails, noneMatchHits, orderEtag } from "../internal/etag.js";
import { readJsonBody } from "../internal/json-body.js";
import { parseCursor, parseIdFilter, parseLimit } from "../internal/pagination.js";
import { parsePositiveInteger, readQuery, safeEcho } from "../internal/query.js";

const LIST_PARAMETERS = queryParameters("listOrders") as Array<"limit" | "status" | "petId" | "cursor">;

/** listOrders: GET /v1/store/orders, a page ordered by id, paginated exactly as listPets. */
export async function listOrders(event: H3Event, orders: OrderStore): Promise<Order[]> {
  const query = readQuery(event.url, LIST_PARAMETERS);
  const limit = parseLimit(query.limit);
  const status = parseStatus(query.status);
  const petId = parseIdFilter("petId", query.petId);
  const page = await orders.list({ status, petId, afterId: parseCursor(query.cursor), limit });
  const last = page.orders.at(-1);
  if (page.hasMore && last) event.res.headers.set("link", `<${nextPageUrl(linkBase(event) + event.url.pathname, query, last.id)}>; rel="next"`);
  return page.orders;
}

/**
 * placeOrder: POST /v1/store/orders; the order and its pet (now pending) in one durable step.
 * Idempotent with an Idempotency-Key, as createPet: a refusal (404, 409) stores nothing.
 */
export async function placeOrder(event: H3Event, orders: OrderStore, creates: IdempotentCreates, now: () => number): Promise<Order> {
  const body = await readJsonBody(event);
  const parsed = NewOrderSchema.safeParse(body);
  if (!parsed.success) throw invalidBody(describeIssue(parsed.error));
  const { petId } = parsed.data;
  return creates.run<StoredOrder, Order>(
    event,
    body,
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
export async function getOrder(event: H3Event, orders: OrderStore): Promise<Order | null> {
  const id = orderIdOf(event);
  const stored = await orders.get(id);
  if (!stored) throw notFound(`no order with id ${id}`);
  const order = withEtag(event, stored);
  if (!noneMatchHits(event.req.headers.get("if-none-match"), orderEtag(stored))) return order;
  event.res.status = 304;
  return null;
}

/** updateOrder: PATCH /v1/store/orders/{orderId} {status}; delivered sells the pet, cancelled frees it. */
export async function updateOrder(event: H3Event, orders: OrderStore, now: () => number): Promise<Order> {
  const id = orderIdOf(event);
  const parsed = OrderPatchSchema.safeParse(await readJsonBody(event, MERGE_PATCH_MEDIA_TYPES));
  if (!parsed.success) throw invalidBody(describeIssue(parsed.error));
  const to = parsed.data.status;
  const noneMatch = event.req.headers.get("if-none-match");
  const stored = noneMatch === null ? undefined : await orders.get(id);
  if (stored && noneMatchFails(noneMatch, orderEtag(stored))) throw noneMatchFailed(`order ${id}`, noneMatch!);
  const result = await orders.transition(id, to, new Date(now()), conditionOf(event, id));
  if (result.outcome === "not_found") throw notFound(`no order with id ${id}`);
  if (result.outcome === "precondition_failed") {
    throw new ApiHttpError("precondition_failed", `order ${id} has changed since the ETag in If-Match: nothing was changed; read it again`);
  }
  if (result.outcome === "invalid_transition") throw invalidTransition(id, result.stored.order.status, to);
  return withEtag(event, result.stored);
}

/** getInventory: GET /v1/store/inventory, from counts the store keeps, never a scan. */
export async function getInventory(orders: OrderStore): Promise<Inventory> {
  return orders.inventory();
}

function withEtag(event: H3Event, stored: StoredOrder): Order {
  event.res.headers.set("etag", orderEtag(stored));
  return stored.order;
}

/**
 * If-Match as the revision the store checks in the same step as the change; with several tags
 * none of which can be current the store is told revision 0, which never is.
 */
function conditionOf(event: H3Event, id: number): ChangeOptions {
  const revisions = ifMatchRevisions(event.req.headers.get("if-match"), id, "order");
  if (revisions === undefined) return {};
  // Revisions only grow: of several tags only the newest can still be current.
  return { ifRevision: revisions.length === 0 ? 0 : Math.max(...revisions) };
}

function invalidTransition(id: number, from: OrderStatus, to: OrderStatus): ApiHttpError {
  const next = ORDER_TRANSITIONS[from];
  const allowed = next.length === 0 ? `${from} is final` : `from ${from} it can go to ${next.join(" or ")}`;
  return new ApiHttpError("invalid_transition", `order ${id} cannot go from ${from} to ${to}: ${allowed}`);
}

function orderIdOf(event: H3Event): number {
  const raw = event.context.params?.orderId ?? "";
  const id = parsePositiveInteger(raw);
  if (id === undefined) throw invalidParameter("orderId", `must be a positive integer, got "${safeEcho(raw)}"`);
  return id;
}

function parseStatus(raw: string | undefined): OrderStatus | undefined {
  if (raw === undefined) return undefined;
  if (!isOrderStatus(raw)) throw invalidParameter("status", `must be one of ${ORDER_STATUSES.join(", ")}, got "${safeEcho(raw)}"`);
  return raw;
}

/** The same query with the next cursor; the values were validated (digits, a status), so need no escaping. */
function nextPageUrl(current: string, query: { limit?: string; status?: string; petId?: string }, lastId: number): string {
  const parts = [
    query.limit === undefined ? "" : `limit=${query.limit}&`,
    query.status === undefined ? "" : `status=${query.status}&`,
    query.petId === undefined ? "" : `petId=${query.petId}&`,
  ];
  return `${current}?${parts.join("")}cursor=${encodeCursor(lastId)}`;
}
