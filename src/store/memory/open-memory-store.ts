import type { Store } from "../store.js";
import { createIndexedStore } from "../indexed/indexed-store.js";
import { emptyStoreData, petsIndexOf, StoreState, type StoreData } from "../indexed/store-state.js";

/**
 * A store that keeps everything in memory, with the same semantics as the lowdb one
 * (ids from 1, batching, visibility once "written"), for tests and throwaway servers;
 * `data` (valid, pets and orders sorted by id) is what it starts with.
 */
export async function openMemoryStore(now?: () => number, data?: StoreData): Promise<Store> {
  return createIndexedStore({ name: ":memory:", state: new StoreState(data, now), persist: async () => {} });
}

/**
 * Opens memory stores that each start from `data` (which must not change), as openMemoryStore
 * would: its pets are indexed once, and each store starts from a copy of that index, so that a
 * reset to a seed does not fold, split and sort every name again.
 */
export function memoryStoresOf(data: StoreData = emptyStoreData(), now?: () => number): () => Store {
  const pets = petsIndexOf(data);
  return () => createIndexedStore({ name: ":memory:", state: new StoreState(data, now, pets.copy()), persist: async () => {} });
}
