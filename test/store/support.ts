// Shared by the store tests: real files in a fresh temporary directory, no mocks.
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { foldName } from "../../src/contract/name-search.js";
import type { Pet, PetStatus } from "../../src/contract/values.js";
import { UNSCOPED_KEY_SCOPES } from "../../src/contract/scopes.js";
import type { KeyRecord } from "../../src/store/key-store.js";
import type { WriteEvent } from "../../src/store/lowdb/durable-json-file.js";
import { openLowdbStore, type LowdbStoreOptions } from "../../src/store/lowdb/open-lowdb-store.js";
import { openMemoryStore } from "../../src/store/memory/open-memory-store.js";
import type { ListPetsQuery, PetStore } from "../../src/store/pet-store.js";
import type { Store } from "../../src/store/store.js";
import { openPostgresStore } from "../../src/store/postgres/open-postgres-store.js";
import { freshDatabase, testBackend } from "../helpers/test-backend.js";

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
  /** Durable file writes since open (the one that creates a new file included): journal lines and snapshots. */
  writes(): number;
  /** Whole-file rewrites of the db (creation and compactions) since open. */
  snapshots(): number;
  /** Every durable write since open, in order. */
  events: WriteEvent[];
  warnings: string[];
}

/** Opens a lowdb store with its write counters and warnings recorded. */
export async function openCounted(file: string, options: Partial<LowdbStoreOptions> = {}): Promise<OpenedLowdb> {
  const events: WriteEvent[] = [];
  const warnings: string[] = [];
  const store = await openLowdbStore(file, {
    ...options,
    warn: (message) => warnings.push(message),
    onWrite: (event) => events.push(event),
  });
  return {
    store,
    writes: () => events.length,
    snapshots: () => events.filter((event) => event.file === "snapshot").length,
    events,
    warnings,
  };
}

export interface OnDisk {
  nextPetId: number;
  pets: Pet[];
  keys: KeyRecord[];
}

interface JournalLine {
  nextPetId: number;
  pets?: Pet[];
  updated?: (Pet & { revision: number })[];
  deleted?: number[];
  keys?: KeyRecord[];
  revoked?: [string, string][];
  touched?: [string, string][];
}

/**
 * What a restart would find: the db file, then each complete line of `<db>.journal` as docs/server.md
 * describes it. Read independently of the store's own code, so the two can check each other.
 */
export function readOnDisk(file: string): OnDisk {
  const snapshot = JSON.parse(readFileSync(file, "utf8")) as OnDisk;
  const pets = new Map(snapshot.pets.map((pet) => [pet.id, pet]));
  const keys = new Map(snapshot.keys.map((key) => [key.id, key]));
  let nextPetId = snapshot.nextPetId;
  for (const line of journalLines(file)) {
    for (const pet of [...(line.pets ?? []), ...(line.updated ?? [])]) pets.set(pet.id, pet);
    for (const id of line.deleted ?? []) pets.delete(id);
    for (const key of line.keys ?? []) if (!keys.has(key.id)) keys.set(key.id, key);
    for (const [id, at] of line.revoked ?? []) keys.set(id, { ...keys.get(id)!, revokedAt: keys.get(id)!.revokedAt ?? at });
    for (const [id, at] of line.touched ?? []) keys.set(id, { ...keys.get(id)!, lastUsedAt: at });
    nextPetId = Math.max(nextPetId, line.nextPetId);
  }
  return { nextPetId, pets: [...pets.values()].sort((a, b) => a.id - b.id), keys: [...keys.values()] };
}

/** The complete lines of `<db>.journal` (none when it does not exist). */
export function journalLines(file: string): JournalLine[] {
  const path = `${file}.journal`;
  if (!existsSync(path)) return [];
  const text = readFileSync(path, "utf8");
  return text.slice(0, text.lastIndexOf("\n") + 1).split("\n").slice(0, -1).map((line) => JSON.parse(line) as JournalLine);
}

/**
 * The engines, for the behaviour they must share: memory and lowdb in the vitest project
 * "lowdb", PostgreSQL (a fresh database each time) in the project "postgres".
 */
export const ENGINES: { name: string; open(): Promise<Store> }[] =
  testBackend() === "postgres"
    ? [{ name: "postgres", open: async () => openPostgresStore((await freshDatabase()).db, { warn: () => undefined }) }]
    : [
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
    scopes: UNSCOPED_KEY_SCOPES,
    limits: null,
    createdAt: "2026-01-02T03:04:05.000Z",
    revokedAt: null,
    lastUsedAt: null,
    ...overrides,
  };
}

/** Every page of `query`, each started after the last pet of the one before, as a cursor does. */
export async function allPages(pets: PetStore, query: ListPetsQuery): Promise<number[][]> {
  const pages: number[][] = [];
  let after: Pick<ListPetsQuery, "afterId" | "afterName"> = {};
  for (;;) {
    const page = await pets.list({ ...query, ...after });
    pages.push(page.pets.map((pet) => pet.id));
    const last = page.pets.at(-1);
    if (!page.hasMore || !last) return pages;
    after = { afterId: last.id, afterName: foldName(last.name) };
  }
}
