import type { Pet } from "../../contract/values.js";
import type { KeyRecord } from "../key-store.js";
import { firstAfter } from "../indexed/pet-index.js";
import type { StoreData } from "../indexed/store-state.js";
import type { JournalRecord } from "./journal-record.js";

/**
 * The snapshot with the journal's records applied in order. Idempotent: a record that is
 * already in the snapshot (a compaction that crashed before emptying the journal) changes
 * nothing. Throws, naming the line, when a record contradicts the snapshot.
 */
export function replayJournal(data: StoreData, records: readonly JournalRecord[]): StoreData {
  const pets = [...data.pets];
  const keys = new KeyTable(data.keys);
  let nextPetId = data.nextPetId;
  records.forEach((record, index) => {
    const where = `line ${index + 1}`;
    for (const pet of record.pets) addPet(pets, pet, where);
    for (const key of record.keys) keys.add(key, where);
    for (const [id, at] of record.revoked) keys.revoke(id, at, where);
    for (const [id, at] of record.touched) keys.touch(id, at, where);
    nextPetId = Math.max(nextPetId, record.nextPetId);
  });
  return { version: 1, nextPetId, pets, keys: keys.records() };
}

/** Appends a pet newer than all, or checks that an older one is already there unchanged. */
function addPet(pets: Pet[], pet: Pet, where: string): void {
  if (pet.id > (pets.at(-1)?.id ?? 0)) {
    pets.push(pet);
    return;
  }
  const held = pets[firstAfter(pets, pet.id - 1)];
  if (held?.id !== pet.id) throw new Error(`${where}: pet ${pet.id} is older than the newest pet but missing`);
  if (!samePet(held, pet)) throw new Error(`${where}: pet ${pet.id} differs from the one in the database`);
}

function samePet(a: Pet, b: Pet): boolean {
  return a.name === b.name && a.categoryId === b.categoryId && a.status === b.status;
}

/** Keys by id, with their hashes checked unique, as records are replayed. */
class KeyTable {
  readonly #byId: Map<string, KeyRecord>;
  readonly #idByHash: Map<string, string>;

  constructor(records: readonly KeyRecord[]) {
    this.#byId = new Map(records.map((record) => [record.id, record]));
    this.#idByHash = new Map(records.map((record) => [record.hash, record.id]));
  }

  add(record: KeyRecord, where: string): void {
    const held = this.#byId.get(record.id);
    if (held && held.hash !== record.hash) throw new Error(`${where}: key ${record.id} has another secret in the database`);
    if (held) return;
    if (this.#idByHash.has(record.hash)) throw new Error(`${where}: key ${record.id} has the secret of another key`);
    this.#byId.set(record.id, record);
    this.#idByHash.set(record.hash, record.id);
  }

  /** A key revoked earlier keeps its first instant. */
  revoke(id: string, at: string, where: string): void {
    const held = this.#known(id, where);
    if (held.revokedAt === null) this.#byId.set(id, { ...held, revokedAt: at });
  }

  /** Touches can be replayed over a newer snapshot: the later instant wins. */
  touch(id: string, at: string, where: string): void {
    const held = this.#known(id, where);
    if (held.lastUsedAt === null || Date.parse(at) > Date.parse(held.lastUsedAt)) {
      this.#byId.set(id, { ...held, lastUsedAt: at });
    }
  }

  records(): KeyRecord[] {
    return [...this.#byId.values()];
  }

  #known(id: string, where: string): KeyRecord {
    const held = this.#byId.get(id);
    if (!held) throw new Error(`${where}: key ${JSON.stringify(id)} is unknown`);
    return held;
  }
}
