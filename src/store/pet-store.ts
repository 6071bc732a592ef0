import type { PetSort } from "../contract/name-search.js";
import type { NewPet, Pet, PetStatus } from "../contract/values.js";
import type { CreateOptions } from "./idempotency-store.js";

export interface ListPetsQuery {
  status?: PetStatus;
  categoryId?: number;
  /** Only pets whose name contains this text, both folded by foldName (contract/name-search.ts). Not empty. */
  search?: string;
  /** The order of the page: by id (the default) or by folded name then id; `-` reverses. */
  sort?: PetSort;
  /**
   * Only pets after this one in the page's order (the decoded cursor): with sort=id, ids greater
   * than this; with -id, smaller; with name and -name, past (afterName, afterId).
   */
  afterId?: number;
  /** With sort=name and -name: the folded name that goes with afterId. */
  afterName?: string;
  limit: number;
}

export interface PetPage {
  pets: Pet[];
  /**
   * The revision of each pet, in the same order. With the ids (never reused) they identify the
   * page's content exactly, so its ETag is a digest of them rather than of the serialised page.
   */
  revisions: number[];
  /** True when more pets match after the last one returned. */
  hasMore: boolean;
}

/** A pet with its revision: 1 at creation, one more with every update. What strong ETags are made of. */
export interface StoredPet {
  pet: Pet;
  revision: number;
}

/** The fields an update may change (a merge patch, already validated). */
export type PetPatch = Partial<Omit<Pet, "id">>;

/** Conditions on a change: `ifRevision` refuses it unless the pet is at exactly that revision. */
export interface ChangeOptions {
  ifRevision?: number;
}

export type UpdateOutcome =
  | { outcome: "updated"; stored: StoredPet }
  /** The patch sets every field to the value it already has: nothing was written. */
  | { outcome: "unchanged"; stored: StoredPet }
  | { outcome: "precondition_failed"; stored: StoredPet }
  /** The patch would change the status of a pet that an open order holds: nothing was written. */
  | { outcome: "has_open_order"; orderId: number; stored: StoredPet }
  | { outcome: "not_found" };

/** has_open_order: an open order holds the pet (OrderStore.openOrderOf names it). */
export type DeleteOutcome = "deleted" | "precondition_failed" | "has_open_order" | "not_found";

/**
 * Where pets live. Async because other engines (PostgreSQL) answer over the network.
 * `create`, `update` and `delete` resolve only once the change is durable; a change is
 * visible to `get`/`list` only from then on. Ids are never reused, deleted pets included.
 */
export interface PetStore {
  /**
   * The new pet, at revision 1. With `options.idempotency`, its record is written in the same
   * durable step; IdempotencyKeyTakenError (nothing created) when that id already has a live one.
   */
  create(input: Required<NewPet>, options?: CreateOptions<Pet>): Promise<Pet>;
  get(id: number): Promise<StoredPet | undefined>;
  list(query: ListPetsQuery): Promise<PetPage>;
  update(id: number, patch: PetPatch, options?: ChangeOptions): Promise<UpdateOutcome>;
  delete(id: number, options?: ChangeOptions): Promise<DeleteOutcome>;
  /** How many pets have each status, for /metrics: from the indexes, or one count query; never a listing. */
  countByStatus?(): Promise<Record<PetStatus, number>>;
  /**
   * A number that moves whenever a committed pet changes, on an engine where this process sees
   * every change (the file): a listing may be kept until it moves. Absent where other processes
   * write too (PostgreSQL): there a SharedListingVersion, when Redis is shared, takes its place.
   */
  listingVersion?(): number;
}

/**
 * Where several instances write to one database: the version under which a listing may be kept,
 * as of this request (undefined: read afresh), and the announcement every write makes before it
 * is answered, so that no instance keeps a listing the writer's client could see is old.
 */
export interface SharedListingVersion {
  version(): string | undefined;
  changed(): Promise<void>;
}

/** True when `patch` would change some field of `pet`. */
export function changesPet(pet: Pet, patch: PetPatch): boolean {
  return (
    (patch.name !== undefined && patch.name !== pet.name) ||
    (patch.categoryId !== undefined && patch.categoryId !== pet.categoryId) ||
    (patch.status !== undefined && patch.status !== pet.status)
  );
}
