// Kept listings over one PostgreSQL and one Redis (RedisListingVersion): two `petstore serve`
// processes (the built CLI), each answering repeated listings from memory, and never with one
// that a client of the other could know to be old.
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json } from "../helpers/assertions.js";
import { startServeProcess, TEST_ADMIN_KEY, type ServeProcess } from "../helpers/serve-process.js";
import { freshDatabase } from "../helpers/test-backend.js";
import { callApi } from "../helpers/test-server.js";

const TOKEN_KEY = "petstore:listings:token";

let a: ServeProcess;
let b: ServeProcess;
let database: pg.Client;
let redis: Redis;
const api = (server: ServeProcess, path: string, init: Parameters<typeof callApi>[3] = {}) =>
  callApi(server.baseUrl, TEST_ADMIN_KEY, path, init);
const names = async (server: ServeProcess, path: string) => ((await json(await api(server, path))) as { name: string }[]).map((pet) => pet.name);

/** A change PostgreSQL does not announce (triggers off): no event, no NOTIFY, no new token. */
async function unannouncedRename(id: number, name: string): Promise<void> {
  await database.query("BEGIN");
  await database.query("SET LOCAL session_replication_role = replica");
  await database.query("UPDATE pets SET name = $2 WHERE id = $1", [id, name]);
  await database.query("COMMIT");
}

beforeAll(async () => {
  const { db, redis: redisUrl } = await freshDatabase();
  const start = () => startServeProcess({ dbPath: db, args: ["--redis", redisUrl] });
  [a, b] = await Promise.all([start(), start()]);
  database = new pg.Client({ connectionString: db });
  await database.connect();
  redis = new Redis(redisUrl);
});
afterAll(async () => {
  await database.end();
  redis.disconnect();
  expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
});

describe("listings kept by two instances over one PostgreSQL and one Redis", () => {
  it("are kept: a change nobody announced is not seen, and the next announced change shows both", async () => {
    const pet = await json(await api(a, "/pets", { json: { name: "Kept", categoryId: 3 } }));
    const path = `/pets?categoryId=3&limit=100`;
    expect(await names(b, path)).toContain("Kept");
    await unannouncedRename(pet.id, "Hidden");
    // B answers from memory: what it kept, not what PostgreSQL now holds.
    expect(await names(b, path)).toContain("Kept");
    expect(await names(b, path)).not.toContain("Hidden");
    const other = await json(await api(a, "/pets", { json: { name: "Announced", categoryId: 3 } }));
    expect(await names(b, path)).toEqual(expect.arrayContaining(["Hidden", "Announced"]));
    expect(other.id).toBeGreaterThan(pet.id);
  });

  it("a create, an update and a delete through one are in the other's next listing, 10 times over", async () => {
    for (let round = 0; round < 10; round++) {
      const [writer, reader] = round % 2 ? [a, b] : [b, a];
      const path = `/pets?categoryId=${100 + round}`;
      expect(await names(reader, path)).toEqual([]);
      const pet = await json(await api(writer, "/pets", { json: { name: `New ${round}`, categoryId: 100 + round } }));
      expect(await names(reader, path)).toEqual([`New ${round}`]);
      expect((await api(writer, `/pets/${pet.id}`, { method: "PATCH", json: { name: `Renamed ${round}` }, headers: { "content-type": "application/merge-patch+json" } })).status).toBe(200);
      expect(await names(reader, path)).toEqual([`Renamed ${round}`]);
      expect((await api(writer, `/pets/${pet.id}`, { method: "DELETE" })).status).toBe(204);
      expect(await names(reader, path)).toEqual([]);
    }
  });

  it("each write request replaces the token before it is answered; a refused one (4xx) does not", async () => {
    const before = await redis.get(TOKEN_KEY);
    expect(before).toEqual(expect.any(String));
    expect((await api(a, "/pets", { json: { name: "" } })).status).toBe(400);
    expect(await redis.get(TOKEN_KEY)).toBe(before);
    expect((await api(a, "/pets", { json: { name: "Tokened", categoryId: 1 } })).status).toBe(201);
    const after = await redis.get(TOKEN_KEY);
    expect(after).toEqual(expect.any(String));
    expect(after).not.toBe(before);
  });

  it("a change made with SQL (announced by the events table's NOTIFY) is seen by both within a second", async () => {
    const pet = await json(await api(a, "/pets", { json: { name: "Before SQL", categoryId: 4 } }));
    for (const server of [a, b]) expect(await names(server, "/pets?categoryId=4")).toEqual(["Before SQL"]);
    await database.query("UPDATE pets SET name = 'After SQL', revision = revision + 1 WHERE id = $1", [pet.id]);
    for (const server of [a, b]) await expect.poll(() => names(server, "/pets?categoryId=4"), { timeout: 1_000 }).toEqual(["After SQL"]);
  });

  it("a Redis that lost its data (restarted empty) gives a token no instance kept a listing under", async () => {
    const pet = await json(await api(a, "/pets", { json: { name: "Before flush", categoryId: 5 } }));
    expect(await names(b, "/pets?categoryId=5")).toEqual(["Before flush"]);
    await unannouncedRename(pet.id, "After flush");
    await redis.flushdb();
    expect(await names(b, "/pets?categoryId=5")).toEqual(["After flush"]);
    // The decision that found no token had one made: listings are kept again from the next.
    await expect.poll(() => redis.get(TOKEN_KEY)).toEqual(expect.any(String));
  });
});
