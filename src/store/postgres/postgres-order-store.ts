import { DatabaseError, type Pool, type PoolClient } from "pg";
import { PET_STATUS_AFTER, transitionSources } from "../../contract/order-transitions.js";
import type { Inventory, Order, OrderStatus, PetStatus } from "../../contract/values.js";
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
import { IdempotencyKeyTakenError, recordOf, type IdempotentWrite } from "../idempotency-store.js";
import type { ChangeOptions } from "../pet-store.js";
import { inTransaction, insertIdempotencyRecords } from "./idempotency-rows.js";
import { storageCall } from "./storage-errors.js";

interface OrderRow {
  id: string;
  pet_id: string;
  status: OrderStatus;
  created_at: Date;
  updated_at: Date;
  revision: number;
}

const ORDER_COLUMNS = "id, pet_id, status, created_at, updated_at, revision";
const UNIQUE_VIOLATION = "23505";

/**
 * Orders in PostgreSQL. A place or a transition is one statement whose CTEs change the order and
 * its pet together, so they commit or fail together. The pet's row is the point of contention:
 * a place changes it only from available (and sets open_order_id), so of concurrent orders for
 * one pet, on one instance or several, the row lock lets exactly one through; the partial unique
 * index on orders(pet_id) holds the same rule should anything else write the table.
 */
export class PostgresOrderStore implements OrderStore {
  readonly #pool: Pool;
  readonly #database: string;

  constructor(pool: Pool, database: string) {
    this.#pool = pool;
    this.#database = database;
  }

  async place({ petId, at }: NewOrderInput, options: PlaceOptions = {}): Promise<PlaceOutcome> {
    const write = options.idempotency;
    const rows = await (write
      ? this.#placeIdempotent(petId, at, write)
      : storageCall(this.#database, () => placeStatement(this.#pool, petId, at))
    ).catch((error: unknown) => {
      if (error instanceof DatabaseError && error.code === UNIQUE_VIOLATION) return [];
      throw error;
    });
    if (rows[0]) return { outcome: "placed", stored: toStoredOrder(rows[0]) };
    const [pet] = await this.#query<{ status: PetStatus }>("SELECT status FROM pets WHERE id = $1", [petId]);
    if (!pet) return { outcome: "pet_not_found" };
    return { outcome: "pet_not_available", petStatus: pet.status === "available" ? "pending" : pet.status };
  }

  /**
   * The place and its idempotency record in one transaction. When another request (or instance)
   * took the record's id first, the transaction is rolled back: no order, the pet untouched.
   */
  async #placeIdempotent(petId: number, at: Date, write: IdempotentWrite<StoredOrder>): Promise<OrderRow[]> {
    return inTransaction(this.#pool, this.#database, async (client) => {
      const rows = await placeStatement(client, petId, at);
      if (!rows[0]) return rows;
      const written = await insertIdempotencyRecords(client, [recordOf(write, toStoredOrder(rows[0]))]);
      if (!written.has(write.id)) throw new IdempotencyKeyTakenError(write.id);
      return rows;
    });
  }

  async get(id: number): Promise<StoredOrder | undefined> {
    const [row] = await this.#query<OrderRow>(`SELECT ${ORDER_COLUMNS} FROM orders WHERE id = $1`, [id]);
    return row && toStoredOrder(row);
  }

  async list(query: ListOrdersQuery): Promise<OrderPage> {
    const conditions: string[] = [];
    const values: unknown[] = [];
    if (query.status !== undefined) conditions.push(`status = $${values.push(query.status)}`);
    if (query.petId !== undefined) conditions.push(`pet_id = $${values.push(query.petId)}`);
    conditions.push(`id > $${values.push(query.afterId ?? 0)}`);
    const limit = `$${values.push(query.limit + 1)}`;
    const rows = await this.#query<OrderRow>(
      `SELECT ${ORDER_COLUMNS} FROM orders WHERE ${conditions.join(" AND ")} ORDER BY id LIMIT ${limit}`,
      values,
    );
    return { orders: rows.slice(0, query.limit).map(toOrder), hasMore: rows.length > query.limit };
  }

  /** The order moves only from a status that may go to `to`; its pet follows in the same statement. */
  async transition(id: number, to: OrderStatus, at: Date, options: ChangeOptions = {}): Promise<TransitionOutcome> {
    const rows = await this.#query<OrderRow>(
      `WITH moved AS (
         UPDATE orders SET status = $2, updated_at = $3, revision = revision + 1
          WHERE id = $1 AND status = ANY($4::text[]) AND ($5::integer IS NULL OR revision = $5)
          RETURNING ${ORDER_COLUMNS}),
       pet AS (
         UPDATE pets SET status = $6, revision = pets.revision + 1, open_order_id = NULL
           FROM moved WHERE pets.id = moved.pet_id AND $6::text IS NOT NULL)
       SELECT * FROM moved`,
      [id, to, at.toISOString(), transitionSources(to), options.ifRevision ?? null, PET_STATUS_AFTER[to] ?? null],
    );
    if (rows[0]) return { outcome: "updated", stored: toStoredOrder(rows[0]) };
    const current = await this.get(id);
    if (!current) return { outcome: "not_found" };
    if (options.ifRevision !== undefined && options.ifRevision !== current.revision) {
      return { outcome: "precondition_failed", stored: current };
    }
    return { outcome: "invalid_transition", stored: current };
  }

  async openOrderOf(petId: number): Promise<number | undefined> {
    const [row] = await this.#query<{ id: string }>(
      "SELECT id FROM orders WHERE pet_id = $1 AND status IN ('placed', 'approved')",
      [petId],
    );
    return row ? Number(row.id) : undefined;
  }

  async inventory(): Promise<Inventory> {
    const rows = await this.#query<{ status: PetStatus; count: string }>("SELECT status, count FROM pet_status_counts");
    const inventory: Inventory = { available: 0, pending: 0, sold: 0 };
    for (const row of rows) inventory[row.status] = Number(row.count);
    return inventory;
  }

  async #query<Row extends object>(text: string, values: unknown[] = []): Promise<Row[]> {
    const result = await storageCall(this.#database, () => this.#pool.query<Row>(text, values));
    return result.rows;
  }
}

/**
 * One statement: the pet becomes pending only if it is available and free, and the order takes
 * the id the pet now names. The partial unique index on open orders settles a race between
 * instances (UNIQUE_VIOLATION: not placed).
 */
async function placeStatement(client: Pool | PoolClient, petId: number, at: Date): Promise<OrderRow[]> {
  const { rows } = await client.query<OrderRow>(
    `WITH held AS (
       UPDATE pets SET status = 'pending', revision = revision + 1,
              open_order_id = nextval(pg_get_serial_sequence('orders', 'id'))
        WHERE id = $1 AND status = 'available' AND open_order_id IS NULL
        RETURNING id, open_order_id)
     INSERT INTO orders (id, pet_id, status, created_at, updated_at)
     SELECT open_order_id, id, 'placed', $2, $2 FROM held
     RETURNING ${ORDER_COLUMNS}`,
    [petId, at.toISOString()],
  );
  return rows;
}

function toOrder(row: OrderRow): Order {
  return Object.freeze({
    id: Number(row.id),
    petId: Number(row.pet_id),
    status: row.status,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  });
}

function toStoredOrder(row: OrderRow): StoredOrder {
  return { order: toOrder(row), revision: row.revision };
}
