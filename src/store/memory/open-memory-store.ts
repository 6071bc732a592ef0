import type { Store } from "../store.js";
import { createIndexedStore } from "../indexed/indexed-store.js";
import { StoreState } from "../indexed/store-state.js";

/**
 * A store that keeps everything in memory, with the same semantics as the lowdb one
 * (ids from 1, batching, visibility once "written"), for tests and throwaway servers.
 */
export async function openMemoryStore(now?: () => number): Promise<Store> {
  return createIndexedStore({ name: ":memory:", state: new StoreState(undefined, now), persist: async () => {} });
}
