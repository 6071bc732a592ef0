// Two `petstore serve` processes (the built CLI) on their own ports over one PostgreSQL database
// and one Redis: what a load balancer in front of them must be able to rely on.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/helpers/run-cli.js";
import { expectError, json } from "../helpers/assertions.js";
import { unusedTestPort } from "../helpers/test-port.js";
import { startServeProcess, TEST_ADMIN_KEY, type ServeProcess } from "../helpers/serve-process.js";
import { freshDatabase } from "../helpers/test-backend.js";
import { callApi } from "../helpers/test-server.js";
import { clearOfWindowEnd, DAY } from "../helpers/window-edge.js";

let a: ServeProcess;
let b: ServeProcess;
let database: pg.Client;
const api = (server: ServeProcess, path: string, init: Parameters<typeof callApi>[3] = {}) =>
  callApi(server.baseUrl, TEST_ADMIN_KEY, path, init);

async function createKey(server: ServeProcess, body: Record<string, unknown>) {
  const response = await api(server, "/keys", { json: body });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; key: string };
}

beforeAll(async () => {
  const { db, redis } = await freshDatabase();
  // Started at the same moment: both migrate the empty database, under the advisory lock. As
  // every fleet should be, with one ticket secret (else each instance warns that it has its own).
  const env = { PETSTORE_TICKET_SECRET: "the ticket secret of this fleet, 32+ chars" };
  const start = () => startServeProcess({ dbPath: db, args: ["--redis", redis], env });
  [a, b] = await Promise.all([start(), start()]);
  database = new pg.Client({ connectionString: db });
  await database.connect();
});
afterAll(async () => {
  await database.end();
  expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
});

describe("two instances over one PostgreSQL and one Redis", () => {
  it("listen on different ports and name the shared engines without secrets", () => {
    expect(a.origin).not.toBe(b.origin);
    expect(a.stderr()).not.toMatch(/warning/);
  });

  it("a pet created through one is listed and found by the other", async () => {
    const created = await api(a, "/pets", { json: { name: "Rex", categoryId: 7, status: "pending" } });
    expect(created.status).toBe(201);
    const pet = await json(created);
    expect(pet).toEqual({ id: expect.any(Number), name: "Rex", categoryId: 7, status: "pending" });
    const listed = await api(b, "/pets?status=pending");
    expect(listed.status).toBe(200);
    expect(await json(listed)).toContainEqual(pet);
    expect(await json(await api(b, `/pets/${pet.id}`))).toEqual(pet);
  });

  it("a key created through one works on the other; revoked through one, it is refused by the other", async () => {
    const { id, key } = await createKey(a, { plan: "free", name: "shared" });
    expect((await api(b, "/pets", { key })).status).toBe(200);
    expect((await api(b, `/keys/${id}`, { method: "DELETE" })).status).toBe(204);
    const refused = await api(a, "/pets", { key });
    expect(await expectError(refused, 401, "unauthorized")).toBe("the API key has been revoked");
    const listed = (await json(await api(a, "/keys"))) as { id: string; revokedAt: string | null }[];
    expect(listed.find((k) => k.id === id)?.revokedAt).toEqual(expect.any(String));
  });

  it("keys are cached by each instance, and a change through one leaves the other's cache at once, 10 times over", async () => {
    for (let round = 0; round < 10; round++) {
      const [revoker, other] = round % 2 ? [a, b] : [b, a];
      const { id, key } = await createKey(revoker, { plan: "pro" });
      // Used through both: each now holds the record.
      for (const server of [a, b, a, b]) expect((await api(server, "/pets?limit=1", { key })).status).toBe(200);
      expect((await api(revoker, `/keys/${id}`, { method: "DELETE" })).status).toBe(204);
      expect(await expectError(await api(other, "/pets?limit=1", { key }), 401, "unauthorized")).toBe("the API key has been revoked");
    }
  });

  it("the cache is real: a change hidden from the announcement is not seen until a change is announced", async () => {
    const { id, key } = await createKey(a, { plan: "free" });
    expect((await api(b, "/pets?limit=1", { key })).status).toBe(200);
    // With replication triggers off, the revocation is not announced: B still answers from its
    // cache. No production path writes like this; it shows the cache is what B consults.
    await database.query("BEGIN");
    await database.query("SET LOCAL session_replication_role = replica");
    await database.query("UPDATE api_keys SET revoked_at = now() WHERE id = $1", [id]);
    await database.query("COMMIT");
    expect((await api(b, "/pets?limit=1", { key })).status).toBe(200);
    // An announced change of that key (its name) empties the caches: the revocation is seen.
    await database.query("UPDATE api_keys SET name = 'renamed' WHERE id = $1", [id]);
    await expect.poll(async () => (await api(b, "/pets?limit=1", { key })).status, { timeout: 2_000 }).toBe(401);
  });

  it("while an instance cannot hear the announcements, it reads keys from the database: no revocation is missed", async () => {
    const { id, key } = await createKey(a, { plan: "free" });
    expect((await api(b, "/pets?limit=1", { key })).status).toBe(200);
    // Cut both instances' listening connections, then revoke before they can listen again.
    const cut = await database.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'petstore-keys' AND datname = current_database()");
    expect(cut.rowCount).toBe(2);
    // pg_terminate_backend only signals: once b has seen its connection end (it says so on
    // stderr) it cannot hear the revocation below, and must read the key from the database.
    // Revoked sooner, the dying backend might still deliver the announcement, or the request be
    // read in the same turn as the connection's end (a loaded CI machine showed that once).
    await expect.poll(() => b.stderr(), { timeout: 5_000 }).toMatch(/key cache lost its PostgreSQL connection/);
    await database.query("UPDATE api_keys SET revoked_at = now() WHERE id = $1", [id]);
    expect(await expectError(await api(b, "/pets?limit=1", { key }), 401, "unauthorized")).toBe("the API key has been revoked");
    // They listen again within a few seconds.
    await expect.poll(async () => (await database.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'petstore-keys' AND datname = current_database()")).rows[0].n, { timeout: 5_000 }).toBe(2);
  });

  it("a key with R requests left, hit through both at once, gets exactly R successes", async () => {
    // The day window binds on servers on the wall clock: all of the count in one UTC day.
    await clearOfWindowEnd(10_000, DAY);
    const { key } = await createKey(b, { plan: "enterprise", perMinute: 100_000, perDay: 200 });
    for (let i = 0; i < 37; i++) expect((await api(i % 2 ? a : b, "/pets?limit=1", { key })).status).toBe(200);
    const R = 200 - 37;
    const statuses = await Promise.all(
      Array.from({ length: 2 * R }, (_, i) => api(i % 2 ? a : b, "/pets?limit=1", { key }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(R);
    expect(statuses.filter((s) => s === 429)).toHaveLength(R);
    const after = await api(a, "/pets", { key });
    expect(after.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(after.headers.get("x-ratelimit-limit")).toBe("200");
  }, 40_000);
});

describe("orders through two instances over one PostgreSQL", () => {
  it("of 50 concurrent orders for one pet through both, exactly one is placed; the other instance sees it", async () => {
    const pet = await json(await api(a, "/pets", { json: { name: "Contested", categoryId: 1 } }));
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => api(i % 2 ? a : b, "/store/orders", { json: { petId: pet.id } })));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(49);
    const order = await json(responses.find((response) => response.status === 201)!);
    expect(await json(await api(b, `/store/orders?petId=${pet.id}`))).toEqual([order]);
    // Delivered through the other instance: the pet is sold for both, and the counts follow.
    const before = await json(await api(a, "/store/inventory"));
    expect((await api(b, `/store/orders/${order.id}`, { method: "PATCH", json: { status: "approved" } })).status).toBe(200);
    expect((await api(a, `/store/orders/${order.id}`, { method: "PATCH", json: { status: "delivered" } })).status).toBe(200);
    expect((await json(await api(b, `/pets/${pet.id}`))).status).toBe("sold");
    expect(await json(await api(b, "/store/inventory"))).toEqual({ ...before, pending: before.pending - 1, sold: before.sold + 1 });
  });
});

describe("serve with PostgreSQL: start-up checks", () => {
  it("started at once on an empty database without PETSTORE_ADMIN_KEY, exactly one creates and prints an admin key", async () => {
    const { db, redis } = await freshDatabase();
    const start = () => startServeProcess({ dbPath: db, args: ["--redis", redis], adminKey: null });
    const servers = await Promise.all([start(), start(), start()]);
    const printed = servers.map((server) => /Created an admin API key.*\n\s+(ps_\w+)/.exec(server.stderr())?.[1]);
    const secrets = printed.filter((secret) => secret !== undefined);
    expect(secrets).toHaveLength(1);
    const keys = await Promise.all(servers.map((server) => callApi(server.baseUrl, secrets[0]!, "/keys")));
    expect(keys.map((response) => response.status)).toEqual([200, 200, 200]);
    const listed = (await keys[0]!.json()) as { admin: boolean }[];
    expect(listed.filter((key) => key.admin)).toHaveLength(1);
    expect(await Promise.all(servers.map((server) => server.stop()))).toEqual([0, 0, 0]);
  });

  it("warns on stderr when it uses PostgreSQL without Redis, and still serves", async () => {
    const { db } = await freshDatabase();
    const server = await startServeProcess({ dbPath: db });
    expect(server.stderr()).toMatch(
      /^warning: PostgreSQL without --redis: rate limits and bans are counted in this process only, .*pass --redis redis:\/\/\.\.\. to share them$/m,
    );
    expect((await api(server, "/pets")).status).toBe(200);
    expect(await server.stop()).toBe(0);
  });

  it("exits 1 with the URL (without its password) and the reason when PostgreSQL cannot be reached", async () => {
    const port = await unusedTestPort();
    // Text, as on a terminal: stderr is a pipe here, where the default is JSON lines.
    const result = await runCli(["serve", "--port", "0", "--db", `postgres://petstore:hunter2@127.0.0.1:${port}/petstore`], {
      env: { PETSTORE_ADMIN_KEY: TEST_ADMIN_KEY, PETSTORE_LOG_FORMAT: "text" },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `petstore serve: cannot open the PostgreSQL database postgres://petstore:***@127.0.0.1:${port}/petstore: connect ECONNREFUSED 127.0.0.1:${port}\n`,
    );
  });

  it.each([
    [["--db", "mysql://db.internal/petstore"], "--db must be a file path or a postgres://[user@]host[:port]/database URL, not mysql://..."],
    [["--db", "postgres://"], "--db must be a file path or a postgres://[user@]host[:port]/database URL; the host is missing"],
    [["--redis", "http://cache:6379"], "--redis must be a redis://[:password@]host[:port][/db] URL, not http://..."],
    [["--redis", "redis://cache:6379/zero"], '--redis must be a redis://[:password@]host[:port][/db] URL: "/zero" is not a database number'],
  ])("%j is a usage error: exit 2, nothing started", async (args, message) => {
    const result = await runCli(["serve", "--port", "0", ...args]);
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr).toContain(message);
  });

  it("takes the Redis URL from PETSTORE_REDIS_URL, and validates it the same way", async () => {
    const result = await runCli(["serve", "--port", "0"], { env: { PETSTORE_REDIS_URL: "memcached://cache" } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--redis must be a redis://[:password@]host[:port][/db] URL, not memcached://...");
  });
});
