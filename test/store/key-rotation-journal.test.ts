// A rotation in the lowdb engine is one journal line with the whole rotated key: a killed
// process leaves it replayable, and the old secret is found again until its grace ends.
import { copyFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { journalLines, keyRecord, openCounted, removeTempDirs, tempDbPath } from "./support.js";

afterAll(removeTempDirs);

const rotation = (n: number) => ({ hash: `hash-${n}`, prefix: `ps_${n}`, graceUntil: "2026-03-01T00:00:00.000Z", at: "2026-02-01T00:00:00.000Z" });

describe("key rotation in the journal", () => {
  it("is replayed after a crash: the new and the previous secret find the key, the one before does not", async () => {
    const file = await tempDbPath();
    const { store } = await openCounted(file);
    await store.keys.create(keyRecord("k1", { expiresAt: "2027-01-01T00:00:00.000Z" }));
    await store.keys.rotate("k1", rotation(1));
    await store.keys.rotate("k1", rotation(2));
    expect(journalLines(file).map((line) => Object.keys(line))).toContainEqual(["nextPetId", "rotated"]);

    const copy = join(dirname(await tempDbPath()), "db.json");
    await copyFile(file, copy);
    await copyFile(`${file}.journal`, `${copy}.journal`);
    await store.close();
    const reopened = await openCounted(copy);
    const found = await reopened.store.keys.findByHash("hash-2");
    expect(found).toMatchObject({ id: "k1", hash: "hash-2", previousHash: "hash-1", previousHashUntil: "2026-03-01T00:00:00.000Z", expiresAt: "2027-01-01T00:00:00.000Z" });
    expect((await reopened.store.keys.findByHash("hash-1"))?.id).toBe("k1");
    expect(await reopened.store.keys.findByHash("hash-of-k1")).toBeUndefined();
    expect(reopened.warnings).toEqual([]);
    await reopened.store.close();
  });

  it("leaves a revoked key as it is, and answers undefined for an unknown id", async () => {
    const file = await tempDbPath();
    const { store } = await openCounted(file);
    await store.keys.create(keyRecord("k2"));
    await store.keys.revoke("k2", new Date("2026-02-01T00:00:00.000Z"));
    expect((await store.keys.rotate("k2", rotation(3)))?.hash).toBe("hash-of-k2");
    expect(await store.keys.rotate("nope", rotation(4))).toBeUndefined();
    await store.close();
  });
});
