import type { Store } from "../store.js";
import { createIndexedStore } from "../indexed/indexed-store.js";
import { StoreState, type StoreData } from "../indexed/store-state.js";

/**
 * A store that keeps everything in memory, with the same semantics as the lowdb one
 * (ids from 1, batching, visibility once "written"), for tests and throwaway servers;
 * `data` (valid, pets and orders sorted by id) is what it starts with.
 */
export async function openMemoryStore(now?: () => number, data?: StoreData): Promise<Store> {
  return createIndexedStore({ name: ":memory:", state: new StoreState(data, now), persist: async () => {} });
}
