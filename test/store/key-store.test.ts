import { afterAll, describe, expect, it } from "vitest";
import { StorageUnavailableError } from "../../src/store/errors.js";
import type { KeyRecord } from "../../src/store/key-store.js";
import { ENGINES, keyRecord, openCounted, readOnDisk, removeTempDirs, tempDbPath } from "./support.js";

afterAll(removeTempDirs);

const at = (iso: string) => new Date(iso);

describe.each(ENGINES)("KeyStore ($name)", ({ name, open }) => {
  it("creates, finds by hash, lists and reports admin keys", async () => {
    const { keys, close } = await open();
    expect(await keys.hasAdminKey()).toBe(false);
    const created = await keys.create(keyRecord("k1", { admin: true, limits: { perMinute: 5, perDay: 50 } }));
    await keys.create(keyRecord("k2"));
    expect(await keys.findByHash("hash-of-k1")).toEqual(created);
    expect(await keys.findByHash("unknown")).toBeUndefined();
    expect((await keys.list()).map((key) => key.id)).toEqual(["k1", "k2"]);
    expect(await keys.hasAdminKey()).toBe(true);
    await keys.revoke("k1", at("2026-02-01T00:00:00.000Z"));
    expect(await keys.hasAdminKey()).toBe(false);
    await close();
  });

  it("findByHashSync answers as findByHash does, or undefined where only findByHash can tell", async () => {
    const { keys, close } = await open();
    await keys.create(keyRecord("k1"));
    // Whenever it answers, it is what findByHash says; null only for a hash no key has.
    const agrees = async (hash: string) => {
      const now = keys.findByHashSync?.(hash);
      const found = await keys.findByHash(hash);
      if (now !== undefined) expect(now ?? undefined).toEqual(found);
      return now;
    };
    await agrees("hash-of-k1");
    // The file engine holds every key; PostgreSQL the ones this instance has looked up.
    expect(await agrees("hash-of-k1")).toEqual(await keys.findByHash("hash-of-k1"));
    expect(await agrees("unknown")).toBe(name === "postgres" ? undefined : null);
    await keys.revoke("k1", at("2026-02-01T00:00:00.000Z"));
    const afterRevoke = await agrees("hash-of-k1");
    expect(afterRevoke === undefined || afterRevoke?.revokedAt === "2026-02-01T00:00:00.000Z").toBe(true);
    await close();
  });

  it("createFirstAdmin: of concurrent calls exactly one creates; after its revocation, the next one does", async () => {
    const { keys, close } = await open();
    const admin = (n: number) => keyRecord(`admin${n}`, { admin: true, plan: "enterprise" });
    const created = await Promise.all(Array.from({ length: 5 }, (_, n) => keys.createFirstAdmin(admin(n))));
    expect(created.filter(Boolean)).toHaveLength(1);
    expect((await keys.list()).filter((key) => key.admin)).toHaveLength(1);
    await keys.revoke(`admin${created.indexOf(true)}`, at("2026-02-01T00:00:00.000Z"));
    expect(await keys.createFirstAdmin(admin(9))).toBe(true);
    expect(await keys.createFirstAdmin(admin(10))).toBe(false);
    await close();
  });

  it("refuses a second key with the same id or hash, also while the first is being written", async () => {
    const { keys, close } = await open();
    const first = keys.create(keyRecord("k1"));
    await expect(keys.create(keyRecord("k1", { hash: "other" }))).rejects.toThrow(/id k1/);
    await first;
    await expect(keys.create(keyRecord("k2", { hash: "hash-of-k1" }))).rejects.toThrow(/same secret/);
    await expect(keys.create(keyRecord("k3", { createdAt: "yesterday" }))).rejects.toThrow(/invalid key: createdAt/);
    await close();
  });

  it("revokes once (idempotent), returns undefined for an unknown id, and still finds revoked keys", async () => {
    const { keys, close } = await open();
    await keys.create(keyRecord("k1"));
    const revoked = await keys.revoke("k1", at("2026-02-01T00:00:00.000Z"));
    expect(revoked?.revokedAt).toBe("2026-02-01T00:00:00.000Z");
    expect((await keys.revoke("k1", at("2026-03-01T00:00:00.000Z")))?.revokedAt).toBe("2026-02-01T00:00:00.000Z");
    const creating = keys.create(keyRecord("k2"));
    expect(await keys.revoke("k2", at("2026-04-01T00:00:00.000Z"))).toBeUndefined(); // not durable yet
    await creating;
    expect(await keys.revoke("nope", at("2026-02-01T00:00:00.000Z"))).toBeUndefined();
    expect((await keys.findByHash("hash-of-k1"))?.revokedAt).toBe("2026-02-01T00:00:00.000Z");
    await close();
  });

  it("keeps a key's scopes, in canonical order, through a rotation, a use and a revocation; refuses an unknown scope", async () => {
    const { keys, close } = await open();
    const created = await keys.create(keyRecord("k1", { scopes: ["events:read", "pets:read", "pets:read"] }));
    expect(created.scopes).toEqual(["pets:read", "events:read"]);
    expect((await keys.findByHash("hash-of-k1"))?.scopes).toEqual(["pets:read", "events:read"]);
    const rotation = { hash: "hash-of-k1-new", prefix: "ps_new", graceUntil: "2026-02-01T01:00:00.000Z", at: "2026-02-01T00:00:00.000Z" };
    expect((await keys.rotate("k1", rotation))?.scopes).toEqual(["pets:read", "events:read"]);
    keys.touch("k1", at("2026-02-01T00:00:01.000Z"));
    expect((await keys.findByHash("hash-of-k1-new"))?.scopes).toEqual(["pets:read", "events:read"]);
    expect((await keys.revoke("k1", at("2026-02-02T00:00:00.000Z")))?.scopes).toEqual(["pets:read", "events:read"]);
    expect((await keys.list()).map((key) => key.scopes)).toEqual([["pets:read", "events:read"]]);
    const unknown = keyRecord("k2", { scopes: ["pets:read", "keys:write"] as never });
    await expect(keys.create(unknown)).rejects.toThrow(/invalid key: scopes/);
    await close();
  });

  it("records touch in memory at once", async () => {
    const { keys, close } = await open();
    await keys.create(keyRecord("k1"));
    keys.touch("k1", at("2026-02-03T04:05:06.000Z"));
    keys.touch("unknown", at("2026-02-03T04:05:06.000Z"));
    expect((await keys.findByHash("hash-of-k1"))?.lastUsedAt).toBe("2026-02-03T04:05:06.000Z");
    await close();
  });
});

describe("KeyStore (lowdb): durability", () => {
  const keysOnDisk = (file: string): KeyRecord[] => readOnDisk(file).keys;

  it("has create and revoke on disk when they resolve, and keeps everything across a reopen", async () => {
    const file = await tempDbPath();
    const { store } = await openCounted(file);
    const enterprise = keyRecord("k1", { plan: "enterprise", limits: { perMinute: 9, perDay: 99 } });
    await store.keys.create(enterprise);
    expect(keysOnDisk(file).map((key) => key.id)).toEqual(["k1"]);
    await store.keys.create(keyRecord("k2"));
    await store.keys.revoke("k2", at("2026-02-01T00:00:00.000Z"));
    expect(keysOnDisk(file)[1]?.revokedAt).toBe("2026-02-01T00:00:00.000Z");
    await store.close();

    const reopened = await openCounted(file);
    expect(await reopened.store.keys.findByHash("hash-of-k1")).toEqual(enterprise);
    expect((await reopened.store.keys.findByHash("hash-of-k2"))?.revokedAt).toBe("2026-02-01T00:00:00.000Z");
    await reopened.store.close();
  });

  it("persists touch with the next write, or at close, and writes nothing at close otherwise", async () => {
    const file = await tempDbPath();
    const { store, writes, snapshots } = await openCounted(file);
    await store.keys.create(keyRecord("k1"));
    store.keys.touch("k1", at("2026-02-01T00:00:00.000Z"));
    expect(keysOnDisk(file)[0]?.lastUsedAt).toBeNull();
    await store.keys.create(keyRecord("k2"));
    expect(keysOnDisk(file)[0]?.lastUsedAt).toBe("2026-02-01T00:00:00.000Z");

    store.keys.touch("k2", at("2026-02-02T00:00:00.000Z"));
    const beforeClose = writes();
    await store.close();
    expect(writes()).toBe(beforeClose + 1);
    expect(snapshots()).toBe(2); // creation, then the journal folded in at close
    expect(keysOnDisk(file)[1]?.lastUsedAt).toBe("2026-02-02T00:00:00.000Z");

    const reopened = await openCounted(file);
    await reopened.store.close();
    expect(reopened.writes()).toBe(0);
  });

  it("rejects key writes after close", async () => {
    const { store } = await openCounted(await tempDbPath());
    await store.close();
    await expect(store.keys.create(keyRecord("k1"))).rejects.toBeInstanceOf(StorageUnavailableError);
  });
});
