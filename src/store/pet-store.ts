import type { NewPet, Pet, PetStatus } from "../contract/values.js";

export interface ListPetsQuery {
  status?: PetStatus;
  /** Only pets with an id greater than this (the decoded cursor). */
  afterId?: number;
  limit: number;
}

export interface PetPage {
  pets: Pet[];
  /** True when more pets match after the last one returned. */
  hasMore: boolean;
}

/**
 * Where pets live. Async because other engines (PostgreSQL) answer over the network.
 * `create` resolves only once the pet is durable; a pet is visible to `get`/`list`
 * only from then on.
 */
export interface PetStore {
  create(input: Required<NewPet>): Promise<Pet>;
  get(id: number): Promise<Pet | undefined>;
  list(query: ListPetsQuery): Promise<PetPage>;
}
