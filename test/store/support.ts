// Shared by the store tests: real files in a fresh temporary directory, no mocks.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PetStatus } from "../../src/contract/values.js";
import type { KeyRecord } from "../../src/store/key-store.js";
import { openLowdbStore, openMemoryStore, type Store } from "../../src/store/open-store.js";

const directories: string[] = [];

/** A db path in a new temporary directory; `removeTempDirs()` deletes them all. */
export async function tempDbPath(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), "petstore-store-"));
  directories.push(directory);
  return join(directory, "db.json");
}

export async function removeTempDirs(): Promise<void> {
  await Promise.all(directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
}

export interface OpenedLowdb {
  store: Store;
  /** Durable file writes since open (the one that creates a new file included). */
  writes(): number;
  warnings: string[];
}

/** Opens a lowdb store with its write counter and warnings recorded. */
export async function openCounted(file: string): Promise<OpenedLowdb> {
  let writes = 0;
  const warnings: string[] = [];
  const store = await openLowdbStore(file, { warn: (message) => warnings.push(message), onWrite: () => writes++ });
  return { store, writes: () => writes, warnings };
}

/** Both engines, for the behaviour they must share. */
export const ENGINES: { name: string; open(): Promise<Store> }[] = [
  { name: "memory", open: () => openMemoryStore() },
  { name: "lowdb", open: async () => (await openCounted(await tempDbPath())).store },
];

export function newPet(index: number, status: PetStatus = "available") {
  return { name: `pet ${index}`, categoryId: 1 + (index % 3), status };
}

export function keyRecord(id: string, overrides: Partial<KeyRecord> = {}): KeyRecord {
  return {
    id,
    hash: `hash-of-${id}`,
    prefix: `ps_${id}`,
    plan: "free",
    name: null,
    admin: false,
    limits: null,
    createdAt: "2026-01-02T03:04:05.000Z",
    revokedAt: null,
    lastUsedAt: null,
    ...overrides,
  };
}
