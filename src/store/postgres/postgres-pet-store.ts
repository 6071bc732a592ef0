import { performance } from "node:perf_hooks";
import type { Pool, PoolClient } from "pg";
import { wasChecked } from "../../contract/checked-input.js";
import { foldName } from "../../contract/name-search.js";
import { NewPetSchema } from "../../contract/schemas.js";
import { PET_STATUSES, type NewPet, type Pet, type PetStatus } from "../../contract/values.js";
import { firstIssue } from "../indexed/records.js";
import type {
  ChangeOptions,
  DeleteOutcome,
  ListPetsQuery,
  PetPage,
  PetPatch,
  PetStore,
  StoredPet,
  UpdateOutcome,
} from "../pet-store.js";
import { IdempotencyKeyTakenError, recordOf, type CreateOptions, type IdempotentWrite } from "../idempotency-store.js";
import { inTransaction, insertIdempotencyRecords } from "./idempotency-rows.js";
import { listQuery } from "./pet-list-query.js";
import { PET_COLUMNS, toPet, toStoredPet, type PetRow } from "./rows.js";
import { storageCall } from "./storage-errors.js";

// One INSERT of at most this many rows; creates that arrive meanwhile wait for the next.
const MAX_BATCH = 500;

interface PendingCreate {
  input: Required<NewPet>;
  idempotency?: IdempotentWrite<Pet>;
  resolve(pet: Pet): void;
  reject(error: unknown): void;
  /** Settles with the pet's id (undefined on failure) just after `resolve`'s callers have run. */
  settled: Promise<number | undefined>;
}

/**
 * Pets in PostgreSQL. Creates are group-committed: the creates that arrive while an INSERT is
 * under way go into the next one, in call order, so ids follow call order as in the file engine
 * and a burst costs one statement. Every read is one indexed query: get by primary key, list by
 * (status, id) or by primary key, `id > cursor ORDER BY id LIMIT n + 1`.
 */
export class PostgresPetStore implements PetStore {
  readonly #pool: Pool;
  readonly #database: string;
  #queue: PendingCreate[] = [];
  #writing = false;
  // A committed row is visible to other connections a moment before its create() resolves.
  // Reads that start while a create is pending wait for it and leave its pet out, so that in
  // this process a pet shows up exactly in the reads that start after its create resolved.
  readonly #creating = new Set<Promise<number | undefined>>();

  readonly #onBatch: ((size: number, ms: number) => void) | undefined;

  /** `onBatch` is told the size and duration of each committed INSERT of creates (metrics). */
  constructor(pool: Pool, database: string, onBatch?: (size: number, ms: number) => void) {
    this.#pool = pool;
    this.#database = database;
    this.#onBatch = onBatch;
  }

  create(input: Required<NewPet>, options: CreateOptions<Pet> = {}): Promise<Pet> {
    if (!wasChecked(input)) {
      const parsed = NewPetSchema.safeParse(input);
      if (!parsed.success) return Promise.reject(new TypeError(`invalid pet: ${firstIssue(parsed.error)}`));
    }
    let resolve: (pet: Pet) => void = () => undefined;
    let reject: (error: unknown) => void = () => undefined;
    const created = new Promise<Pet>((onPet, onError) => ((resolve = onPet), (reject = onError)));
    // Registered before the caller's own callbacks, so it runs first, but only settles the
    // waiting reads one step later, after the caller has seen its pet.
    const settled = created.then(
      (pet) => pet.id,
      () => undefined,
    );
    this.#creating.add(settled);
    this.#queue.push({ input, idempotency: options.idempotency, resolve, reject, settled });
    if (!this.#writing) void this.#writeBatches();
    return created;
  }

  async get(id: number): Promise<StoredPet | undefined> {
    const pending = this.#pendingCreates();
    const { rows } = await storageCall(this.#database, () =>
      this.#pool.query<PetRow>(`SELECT ${PET_COLUMNS} FROM pets WHERE id = $1`, [id]),
    );
    const [row] = await this.#withoutPending(rows, pending);
    return row && toStoredPet(row);
  }

  async list(query: ListPetsQuery): Promise<PetPage> {
    // No PostgreSQL text holds U+0000 (sending one is an error): no name contains such a text.
    if (query.search?.includes("\0")) return { pets: [], revisions: [], hasMore: false };
    const pending = this.#pendingCreates();
    // One extra row tells whether more follow; one more per create that may have to be left out.
    const fetch = query.limit + 1 + pending.length;
    const { rows } = await storageCall(this.#database, () => this.#pool.query<PetRow>(listQuery(query, fetch)));
    const page = (await this.#withoutPending(rows, pending)).slice(0, query.limit + 1);
    const hasMore = page.length > query.limit;
    if (hasMore) page.pop();
    return { pets: page.map(toPet), revisions: page.map((row) => row.revision), hasMore };
  }

  /**
   * One UPDATE that changes the row only when it exists, is at the expected revision and would
   * really change; when it changes nothing, one SELECT tells which of the three it was.
   */
  async update(id: number, patch: PetPatch, options: ChangeOptions = {}): Promise<UpdateOutcome> {
    const parsed = PetPatchCheck.safeParse(patch);
    if (!parsed.success) throw new TypeError(`invalid pet: ${firstIssue(parsed.error)}`);
    const { name = null, categoryId = null, status = null } = patch;
    const { rows } = await storageCall(this.#database, () =>
      this.#pool.query<PetRow>(
        `UPDATE pets SET name = COALESCE($2, name), name_key = COALESCE($6, name_key), category_id = COALESCE($3, category_id),
                status = COALESCE($4, status), revision = revision + 1
          WHERE id = $1 AND ($5::integer IS NULL OR revision = $5)
            AND ($4::text IS NULL OR $4 = status OR open_order_id IS NULL)
            AND (name, category_id, status) IS DISTINCT FROM
                (COALESCE($2, name), COALESCE($3::bigint, category_id), COALESCE($4, status))
          RETURNING ${PET_COLUMNS}`,
        [id, name, categoryId, status, options.ifRevision ?? null, name === null ? null : foldName(name)],
      ),
    );
    if (rows[0]) return { outcome: "updated", stored: toStoredPet(rows[0]) };
    const current = await this.get(id);
    if (!current) return { outcome: "not_found" };
    if (options.ifRevision !== undefined && options.ifRevision !== current.revision) {
      return { outcome: "precondition_failed", stored: current };
    }
    const orderId = status !== null && status !== current.pet.status ? await this.#openOrderOf(id) : undefined;
    if (orderId !== undefined) return { outcome: "has_open_order", orderId, stored: current };
    return { outcome: "unchanged", stored: current };
  }

  /** Read from the counts the pets table's triggers keep (migration 4), so a scrape never counts rows. */
  async countByStatus(): Promise<Record<PetStatus, number>> {
    const { rows } = await storageCall(this.#database, () =>
      this.#pool.query<{ status: PetStatus; n: number }>("SELECT status, count::int AS n FROM pet_status_counts"),
    );
    const counts = Object.fromEntries(PET_STATUSES.map((status) => [status, 0])) as Record<PetStatus, number>;
    for (const row of rows) counts[row.status] = row.n;
    return counts;
  }

  async delete(id: number, options: ChangeOptions = {}): Promise<DeleteOutcome> {
    const { rowCount } = await storageCall(this.#database, () =>
      this.#pool.query(`DELETE FROM pets WHERE id = $1 AND ($2::integer IS NULL OR revision = $2) AND open_order_id IS NULL`, [
        id,
        options.ifRevision ?? null,
      ]),
    );
    if (rowCount === 1) return "deleted";
    const current = await this.get(id);
    if (!current) return "not_found";
    if (options.ifRevision !== undefined && options.ifRevision !== current.revision) return "precondition_failed";
    // The row is there at the expected revision, so an open order held it at the DELETE (it may have closed since).
    return "has_open_order";
  }

  /** The order that holds the pet, as its row says (migration 4). */
  async #openOrderOf(id: number): Promise<number | undefined> {
    const { rows } = await storageCall(this.#database, () =>
      this.#pool.query<{ open_order_id: string | null }>("SELECT open_order_id FROM pets WHERE id = $1", [id]),
    );
    const orderId = rows[0]?.open_order_id;
    return orderId === null || orderId === undefined ? undefined : Number(orderId);
  }

  async #writeBatches(): Promise<void> {
    this.#writing = true;
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, MAX_BATCH);
      let results: (Pet | IdempotencyKeyTakenError)[] | undefined;
      let failure: unknown;
      try {
        const started = performance.now();
        const idempotent = batch.some((create) => create.idempotency);
        results = idempotent ? await this.#insertIdempotent(batch) : await this.#insert(batch.map((create) => create.input));
        this.#onBatch?.(batch.length, performance.now() - started);
      } catch (error) {
        failure = error;
      }
      batch.forEach((create, i) => {
        this.#creating.delete(create.settled);
        const result = results?.[i];
        if (result && !(result instanceof Error)) create.resolve(result);
        else create.reject(result ?? failure);
      });
    }
    this.#writing = false;
  }

  /** One statement for the batch; ids are drawn row by row in `ord` order, so sorted ids match it. */
  async #insert(inputs: Required<NewPet>[], client: Pool | PoolClient = this.#pool): Promise<Pet[]> {
    const { rows } = await storageCall(this.#database, () =>
      client.query<PetRow>(
        `INSERT INTO pets (name, category_id, status, name_key)
         SELECT name, category_id, status, name_key
           FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[]) WITH ORDINALITY AS new (name, category_id, status, name_key, ord)
          ORDER BY ord
         RETURNING ${PET_COLUMNS}`,
        [inputs.map((pet) => pet.name), inputs.map((pet) => pet.categoryId), inputs.map((pet) => pet.status), inputs.map((pet) => foldName(pet.name))],
      ),
    );
    return rows.map(toPet).sort((a, b) => a.id - b.id);
  }

  /**
   * The batch and its idempotency records in one transaction. A create whose id another instance
   * has just taken gets its pet deleted again before the commit (its id is simply skipped) and
   * IdempotencyKeyTakenError instead of a pet.
   */
  async #insertIdempotent(batch: PendingCreate[]): Promise<(Pet | IdempotencyKeyTakenError)[]> {
    return inTransaction(this.#pool, this.#database, async (client) => {
      const pets = await this.#insert(
        batch.map((create) => create.input),
        client,
      );
      const records = batch.flatMap((create, i) => (create.idempotency ? [recordOf(create.idempotency, pets[i]!)] : []));
      const written = await insertIdempotencyRecords(client, records);
      const results = batch.map((create, i) =>
        create.idempotency && !written.has(create.idempotency.id) ? new IdempotencyKeyTakenError(create.idempotency.id) : pets[i]!,
      );
      const dropped = pets.filter((_, i) => results[i] instanceof Error).map((pet) => pet.id);
      if (dropped.length > 0) {
        await client.query("DELETE FROM pets WHERE id = ANY($1::bigint[])", [dropped]);
        // Those pets never existed for anyone: their events (created, then deleted) go with them.
        // They are among the newest rows (this transaction holds the events lock): looked for there only.
        await client.query(
          `DELETE FROM events WHERE id IN (SELECT id FROM events ORDER BY id DESC LIMIT $2)
             AND type IN ('pet.created', 'pet.deleted') AND (data->>'id')::bigint = ANY($1::bigint[])`,
          [dropped, pets.length + dropped.length],
        );
      }
      return results;
    });
  }

  #pendingCreates(): Promise<number | undefined>[] {
    return this.#creating.size === 0 ? [] : [...this.#creating];
  }

  async #withoutPending(rows: PetRow[], pending: Promise<number | undefined>[]): Promise<PetRow[]> {
    if (pending.length === 0 || rows.length === 0) return rows;
    const hidden = new Set(await Promise.all(pending));
    return rows.filter((row) => !hidden.has(Number(row.id)));
  }
}

// What an update may set, checked as createPet's body is, so that nothing the schema's CHECKs
// refuse reaches the database as a 500.
const PetPatchCheck = NewPetSchema.partial();
