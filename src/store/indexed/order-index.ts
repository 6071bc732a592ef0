import { OPEN_ORDER_STATUSES, type Order } from "../../contract/values.js";
import type { ListOrdersQuery, OrderPage, StoredOrder } from "../order-store.js";
import { toOrderRecord, type OrderRecord } from "./order-records.js";
import { firstAfter } from "./pet-index.js";

/**
 * Committed orders, indexed as pets are: one id-sorted list of all orders, one per status, one
 * per pet and one per (status, pet), so a page is a binary search and a slice. Orders are never
 * deleted; a transition moves an order between status lists. The open order of each pet is kept
 * apart, since pets ask for it on every status change and delete.
 */
export class OrderIndex {
  readonly #byId = new Map<number, StoredOrder>();
  readonly #lists = new Map<string, Order[]>([["", []]]);
  readonly #openByPet = new Map<number, number>();
  #lastId = 0;

  put(records: Iterable<StoredOrder>): void {
    for (const stored of records) {
      const { order } = stored;
      const held = this.#byId.get(order.id);
      this.#byId.set(order.id, stored);
      if (held) this.#relist(held.order, order);
      else for (const key of listKeys(order)) insertSorted(this.#listFor(key), order);
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
    const orders = this.#lists.get(listKey(status, petId)) ?? [];
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
    return (this.#lists.get("") ?? []).map((order) => toOrderRecord(this.#byId.get(order.id) ?? { order, revision: 1 }));
  }

  // Only the status changes in a transition: the order is replaced in place in the lists keyed
  // without status, and moved between the others.
  #relist(held: Order, order: Order): void {
    const keys = listKeys(order);
    const heldKeys = listKeys(held);
    keys.forEach((key, i) => {
      const heldKey = heldKeys[i]!;
      if (key === heldKey) {
        const list = this.#listFor(key);
        const at = firstAfter(list, order.id - 1);
        if (list[at]?.id === order.id) list[at] = order;
        return;
      }
      const list = this.#lists.get(heldKey);
      const at = list ? firstAfter(list, held.id - 1) : -1;
      if (list && list[at]?.id === held.id) list.splice(at, 1);
      if (list?.length === 0 && heldKey !== "") this.#lists.delete(heldKey);
      insertSorted(this.#listFor(key), order);
    });
  }

  #listFor(key: string): Order[] {
    let list = this.#lists.get(key);
    if (!list) this.#lists.set(key, (list = []));
    return list;
  }
}

function listKey(status: string | undefined, petId: number | undefined): string {
  return `${status ?? ""}/${petId ?? ""}`.replace(/^\/$/, "");
}

function listKeys(order: Order): string[] {
  return ["", listKey(order.status, undefined), listKey(undefined, order.petId), listKey(order.status, order.petId)];
}

function insertSorted(list: Order[], order: Order): void {
  if ((list.at(-1)?.id ?? 0) < order.id) list.push(order);
  else list.splice(firstAfter(list, order.id), 0, order);
}
