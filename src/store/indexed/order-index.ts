import { OPEN_ORDER_STATUSES, type Order } from "../../contract/values.js";
import type { ListOrdersQuery, OrderPage, StoredOrder } from "../order-store.js";
import { toOrderRecord, type OrderRecord } from "./order-records.js";
import { firstAfter } from "./pet-index.js";

/**
 * Committed orders, indexed as pets are: one id-sorted list of all orders, one per status and one
 * per pet, so a page is a binary search and a slice. A pet holds one order or a few, so a page of
 * one pet's orders in one status filters that pet's list. Orders are never deleted, and there is
 * one per-pet list per ordered pet: each is made to its size (a list grown by push reserves 17
 * slots, 144 bytes, for its first order), and keyed by the pet's id rather than by a string. A
 * transition moves an order between status lists. The open order of each pet is kept apart,
 * since pets ask for it on every status change and delete.
 */
export class OrderIndex {
  readonly #byId = new Map<number, StoredOrder>();
  readonly #all: Order[] = [];
  readonly #byStatus = new Map<string, Order[]>();
  readonly #byPet = new Map<number, Order[]>();
  readonly #openByPet = new Map<number, number>();
  #lastId = 0;

  put(records: Iterable<StoredOrder>): void {
    for (const stored of records) {
      const { order } = stored;
      const held = this.#byId.get(order.id);
      this.#byId.set(order.id, stored);
      if (held) this.#relist(held.order, order);
      else this.#list(order);
      if (OPEN_ORDER_STATUSES.includes(order.status)) this.#openByPet.set(order.petId, order.id);
      else if (this.#openByPet.get(order.petId) === order.id) this.#openByPet.delete(order.petId);
      this.#lastId = Math.max(this.#lastId, order.id);
    }
  }

  get(id: number): StoredOrder | undefined {
    return this.#byId.get(id);
  }

  openOrderOf(petId: number): number | undefined {
    return this.#openByPet.get(petId);
  }

  list({ status, petId, afterId = 0, limit }: ListOrdersQuery): OrderPage {
    let orders = (petId === undefined ? (status === undefined ? this.#all : this.#byStatus.get(status)) : this.#byPet.get(petId)) ?? [];
    if (petId !== undefined && status !== undefined) orders = orders.filter((order) => order.status === status);
    const start = firstAfter(orders, afterId);
    const end = start + Math.max(0, limit);
    return { orders: orders.slice(start, end), hasMore: end < orders.length };
  }

  /** The highest id ever held. */
  get lastId(): number {
    return this.#lastId;
  }

  /** Every order as the file holds it, sorted by id. */
  records(): OrderRecord[] {
    return this.#all.map((order) => toOrderRecord(this.#byId.get(order.id) ?? { order, revision: 1 }));
  }

  #list(order: Order): void {
    insertSorted(this.#all, order);
    insertInto(this.#byStatus, order.status, order);
    insertInto(this.#byPet, order.petId, order);
  }

  // Only the status changes in a transition: the order is replaced in place in the lists of all
  // orders and of its pet, and moved between status lists.
  #relist(held: Order, order: Order): void {
    replaceIn(this.#all, order);
    const ofPet = this.#byPet.get(order.petId);
    if (ofPet) replaceIn(ofPet, order);
    if (held.status === order.status) {
      const ofStatus = this.#byStatus.get(order.status);
      if (ofStatus) replaceIn(ofStatus, order);
      return;
    }
    const from = this.#byStatus.get(held.status);
    const at = from ? firstAfter(from, held.id - 1) : -1;
    if (from && from[at]?.id === held.id) from.splice(at, 1);
    insertInto(this.#byStatus, order.status, order);
  }
}

function insertInto<K>(lists: Map<K, Order[]>, key: K, order: Order): void {
  const list = lists.get(key);
  if (list) insertSorted(list, order);
  else lists.set(key, [order]);
}

function replaceIn(list: Order[], order: Order): void {
  const at = firstAfter(list, order.id - 1);
  if (list[at]?.id === order.id) list[at] = order;
}

function insertSorted(list: Order[], order: Order): void {
  if ((list.at(-1)?.id ?? 0) < order.id) list.push(order);
  else list.splice(firstAfter(list, order.id), 0, order);
}
