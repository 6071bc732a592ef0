import type { KeyRecord, KeyStore, Rotation } from "../key-store.js";
import type { CreateOptions } from "../idempotency-store.js";
import type { GroupCommit } from "./group-commit.js";
import { stageCreate } from "./stage-create.js";
import { newKeyRecord, rotatedKeyRecord } from "./records.js";
import type { StoreState } from "./store-state.js";

/** Lookups answer from the in-memory maps; creates and revocations go through the group commit. */
export class IndexedKeyStore implements KeyStore {
  readonly #state: StoreState;
  readonly #commit: GroupCommit;
  // Ids and hashes of keys being written: a duplicate would make the file fail to load.
  readonly #stagedIds = new Set<string>();
  readonly #stagedHashes = new Set<string>();
  readonly #touchedSecond = new Map<string, number>();
  #creatingFirstAdmin = false;

  constructor(state: StoreState, commit: GroupCommit) {
    this.#state = state;
    this.#commit = commit;
  }

  async create(input: KeyRecord, options: CreateOptions<KeyRecord> = {}): Promise<KeyRecord> {
    const record = newKeyRecord(input);
    this.#reserve(record);
    try {
      await stageCreate(this.#state, this.#commit, options, () => record, (batch, created) => batch.keys.push(created));
    } finally {
      this.#stagedIds.delete(record.id);
      this.#stagedHashes.delete(record.hash);
    }
    return this.#state.keys.byId(record.id) ?? record;
  }

  async findByHash(hash: string): Promise<KeyRecord | undefined> {
    return this.#state.keys.byHash(hash);
  }

  findByHashSync(hash: string): KeyRecord | null {
    return this.#state.keys.byHash(hash) ?? null;
  }

  async list(): Promise<KeyRecord[]> {
    return this.#state.keys.all();
  }

  async revoke(id: string, at: Date): Promise<KeyRecord | undefined> {
    const record = this.#state.keys.byId(id);
    if (!record || record.revokedAt !== null) return record;
    const revokedAt = at.toISOString();
    // A second revocation in the same batch keeps the first instant.
    await this.#commit.stage((batch) => {
      if (!batch.revocations.has(id)) batch.revocations.set(id, revokedAt);
    });
    return this.#state.keys.byId(id);
  }

  async rotate(id: string, rotation: Rotation): Promise<KeyRecord | undefined> {
    const record = this.#state.keys.byId(id);
    if (!record || record.revokedAt !== null) return record;
    if (this.#state.keys.byHash(rotation.hash) || this.#stagedHashes.has(rotation.hash)) {
      throw new Error("a key with the same secret already exists");
    }
    // Two rotations in one batch: the second builds on the first, so its previous secret is the first's new one.
    await this.#commit.stage((batch) => {
      batch.rotations.set(id, rotatedKeyRecord(batch.rotations.get(id) ?? record, rotation));
    });
    return this.#state.keys.byId(id);
  }

  // Runs on every authenticated request: lastUsedAt has second precision, so repeats within
  // the same second skip the ISO formatting and the record copy.
  touch(id: string, at: Date): void {
    const second = Math.floor(at.getTime() / 1000);
    if (this.#touchedSecond.get(id) === second) return;
    this.#touchedSecond.set(id, second);
    this.#state.keys.touch(id, at.toISOString());
  }

  /** Revoked admin keys do not count: with all of them revoked, the next start bootstraps one. */
  async hasAdminKey(): Promise<boolean> {
    return this.#hasLiveAdmin();
  }

  #hasLiveAdmin(): boolean {
    return this.#state.keys.all().some((record) => record.admin && record.revokedAt === null);
  }

  // One process holds the file (the lock), so checking and staging in the same turn is atomic.
  async createFirstAdmin(record: KeyRecord): Promise<boolean> {
    if (this.#creatingFirstAdmin || this.#hasLiveAdmin()) return false;
    this.#creatingFirstAdmin = true;
    try {
      await this.create(record);
      return true;
    } finally {
      this.#creatingFirstAdmin = false;
    }
  }

  #reserve(record: KeyRecord): void {
    const keys = this.#state.keys;
    if (keys.byId(record.id) || this.#stagedIds.has(record.id)) {
      throw new Error(`a key with the id ${record.id} already exists`);
    }
    if (keys.byHash(record.hash) || this.#stagedHashes.has(record.hash)) {
      throw new Error(`a key with the same secret already exists`);
    }
    this.#stagedIds.add(record.id);
    this.#stagedHashes.add(record.hash);
  }
}
