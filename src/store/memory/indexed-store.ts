import type { Store } from "../open-store.js";
import { GroupCommit, type Persist } from "./group-commit.js";
import { IndexedKeyStore } from "./indexed-key-store.js";
import { IndexedPetStore } from "./indexed-pet-store.js";
import type { StoreState } from "./store-state.js";

export interface IndexedStoreParts {
  /** What errors name: the db file. */
  name: string;
  state: StoreState;
  persist: Persist;
  /** Runs last in `close()`, even when the final write fails. */
  release?: () => Promise<void>;
}

/** Assembles the pet and key stores over one state and one group commit. */
export function createIndexedStore({ name, state, persist, release }: IndexedStoreParts): Store {
  const commit = new GroupCommit(state, persist, name);
  let closing: Promise<void> | undefined;
  return {
    pets: new IndexedPetStore(state, commit),
    keys: new IndexedKeyStore(state, commit),
    close: () => (closing ??= closeStore(commit, state, release)),
  };
}

async function closeStore(commit: GroupCommit, state: StoreState, release?: () => Promise<void>): Promise<void> {
  commit.close();
  try {
    await commit.idle();
    if (state.keys.dirty) await commit.flush();
  } finally {
    await release?.();
  }
}
