// Issue 13, idempotent creates, over both engines (the "postgres" project runs this file against
// PostgreSQL and Redis): POST /v1/pets and POST /v1/keys with an Idempotency-Key. Every answer is
// checked against the OpenAPI document by server.api (replays, 409, 422 and 400 included).
import { readFile } from "node:fs/promises";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { expectError, json } from "../helpers/assertions.js";
import { testBackend } from "../helpers/test-backend.js";
import { createKey, startTestServer, testClock, type TestServer } from "../helpers/test-server.js";

const DAY_MS = 24 * 60 * 60 * 1000;
const clock = testClock();
let server: TestServer;
let serverKey: string;

beforeAll(async () => {
  server = await startTestServer({ now: clock.now });
  serverKey = (await createKey(server, { plan: "business", name: "other caller" })).key;
});
afterAll(() => server.close());

let counter = 0;
/** A fresh Idempotency-Key for each test. */
const freshKey = () => `idem-${Date.now()}-${++counter}`;

const postPet = (body: unknown, idempotencyKey?: string, key?: string) =>
  server.api("/pets", { json: body, key, headers: idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey } });

async function petCount(on: TestServer = server): Promise<number> {
  let count = 0;
  let url: string | undefined = "/pets?limit=100";
  while (url) {
    const response: Response = await on.api(url);
    count += ((await response.json()) as unknown[]).length;
    url = /^<([^>]+)>; rel="next"$/.exec(response.headers.get("link") ?? "")?.[1];
  }
  return count;
}

/** The parts of an answer a replay must repeat. */
async function answerOf(response: Response) {
  return {
    status: response.status,
    body: await json(response),
    location: response.headers.get("location"),
    etag: response.headers.get("etag"),
  };
}

describe("POST /v1/pets with Idempotency-Key", () => {
  it("answers a retry with the first answer (status, body, Location, ETag) and Idempotent-Replayed: true, creating nothing", async () => {
    const key = freshKey();
    const first = await postPet({ name: "Rex", categoryId: 1 }, key);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const original = await answerOf(first);
    expect(original.status).toBe(201);
    const before = await petCount();

    const retry = await postPet({ name: "Rex", categoryId: 1 }, key);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await answerOf(retry)).toEqual(original);
    // The same request whatever the order of its fields: the body is compared once parsed.
    const reordered = await postPet({ categoryId: 1, name: "Rex" }, key);
    expect(await answerOf(reordered)).toEqual(original);
    expect(await petCount()).toBe(before);
  });

  it("refuses the same key with another body: 422 idempotency_key_reused, nothing created", async () => {
    const key = freshKey();
    expect((await postPet({ name: "Kit", categoryId: 2 }, key)).status).toBe(201);
    const before = await petCount();
    const message = await expectError(await postPet({ name: "Kat", categoryId: 2 }, key), 422, "idempotency_key_reused");
    expect(message).toMatch(/another body/);
    expect(await petCount()).toBe(before);
  });

  it("answers identical concurrent requests with exactly one 201; the others 409 idempotency_key_in_progress or the replay", async () => {
    const key = freshKey();
    const before = await petCount();
    const responses = await Promise.all(Array.from({ length: 10 }, () => postPet({ name: "Burst", categoryId: 3 }, key)));
    const originals = responses.filter((response) => response.status === 201 && !response.headers.has("idempotent-replayed"));
    expect(originals).toHaveLength(1);
    const pet = await json(originals[0]!);
    for (const response of responses.filter((candidate) => candidate !== originals[0])) {
      if (response.status === 409) await expectError(response, 409, "idempotency_key_in_progress");
      else expect({ status: response.status, replayed: response.headers.get("idempotent-replayed"), body: await json(response) }).toEqual({ status: 201, replayed: "true", body: pet });
    }
    expect(await petCount()).toBe(before + 1);
    // Once the first has finished, a retry gets its answer.
    expect(await json(await postPet({ name: "Burst", categoryId: 3 }, key))).toEqual(pet);
  });

  it.each([
    ["256 characters", "k".repeat(256), /at most 255 characters/],
    ["a space", "two words", /visible ASCII/],
    ["a non-ASCII character", "clé", /visible ASCII/],
  ])("refuses a key of %s: 400 invalid_parameter naming Idempotency-Key, nothing created", async (_label, key, message) => {
    const before = await petCount();
    // fetch sends "é" as one Latin-1 byte, as a careless client would.
    const response = await server.api("/pets", { json: { name: "Bad", categoryId: 1 }, headers: { "idempotency-key": key } });
    const text = await expectError(response, 400, "invalid_parameter");
    expect(text).toMatch(/Idempotency-Key/);
    expect(text).toMatch(message);
    expect(await petCount()).toBe(before);
  });

  it("accepts a key of exactly 255 characters", async () => {
    const key = `${freshKey()}-`.padEnd(255, "x");
    expect((await postPet({ name: "Long", categoryId: 1 }, key)).status).toBe(201);
    expect((await postPet({ name: "Long", categoryId: 1 }, key)).headers.get("idempotent-replayed")).toBe("true");
  });

  it("scopes keys per API key: the same Idempotency-Key from two API keys creates two pets", async () => {
    const key = freshKey();
    const before = await petCount();
    const a = await json(await postPet({ name: "Twin", categoryId: 4 }, key));
    const b = await postPet({ name: "Twin", categoryId: 4 }, key, serverKey);
    expect(b.status).toBe(201);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    expect((await json(b)).id).not.toBe(a.id);
    expect(await petCount()).toBe(before + 2);
  });

  it("forgets a key after 24 hours: the same request creates again", async () => {
    const key = freshKey();
    const first = await json(await postPet({ name: "Old", categoryId: 5 }, key));
    clock.advance(DAY_MS - 1);
    expect(await json(await postPet({ name: "Old", categoryId: 5 }, key))).toEqual(first);
    clock.advance(1);
    const later = await postPet({ name: "Old", categoryId: 5 }, key);
    expect(later.status).toBe(201);
    expect(later.headers.get("idempotent-replayed")).toBeNull();
    const second = await json(later);
    expect(second.id).toBeGreaterThan(first.id);
    // And the new answer is the one kept from then on.
    expect(await json(await postPet({ name: "Old", categoryId: 5 }, key))).toEqual(second);
  });

  it("behaves as before without the header: every POST creates", async () => {
    const before = await petCount();
    const a = await postPet({ name: "Plain", categoryId: 1 });
    const b = await postPet({ name: "Plain", categoryId: 1 });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.headers.get("idempotent-replayed")).toBeNull();
    expect(await petCount()).toBe(before + 2);
  });
});

describe("POST /v1/keys with Idempotency-Key", () => {
  it("gives the same key and secret again to the same caller, and creates no second key", async () => {
    const key = freshKey();
    const first = await server.api("/keys", { json: { plan: "pro", name: "ci" }, headers: { "idempotency-key": key } });
    expect(first.status).toBe(201);
    const created = await json(first);
    const keysBefore = (await json(await server.api("/keys"))).length;
    const retry = await server.api("/keys", { json: { plan: "pro", name: "ci" }, headers: { "idempotency-key": key } });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.headers.get("location")).toBe(`/v1/keys/${created.id}`);
    expect(await json(retry)).toEqual(created);
    expect((await json(await server.api("/keys"))).length).toBe(keysBefore);
    await expectError(
      await server.api("/keys", { json: { plan: "free", name: "ci" }, headers: { "idempotency-key": key } }),
      422,
      "idempotency_key_reused",
    );
  });
});

describe("POST /v1/store/orders with Idempotency-Key", () => {
  const placeOrder = (petId: number, idempotencyKey: string) =>
    server.api("/store/orders", { json: { petId }, headers: { "idempotency-key": idempotencyKey } });
  const newPetId = async () => (await json(await postPet({ name: "To order", categoryId: 8 }))).id as number;

  it("answers a retry with the first order (status, body, Location, ETag) and Idempotent-Replayed: true, placing nothing more", async () => {
    const petId = await newPetId();
    const key = freshKey();
    const first = await placeOrder(petId, key);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const original = await answerOf(first);
    expect(original.status).toBe(201);
    expect(original.etag).toMatch(/^"order-\d+-1"$/);

    const retry = await placeOrder(petId, key);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await answerOf(retry)).toEqual(original);
    const orders = await json(await server.api(`/store/orders?petId=${petId}`));
    expect(orders).toEqual([original.body]);
    expect((await json(await server.api(`/pets/${petId}`))).status).toBe("pending");
  });

  it("a refusal stores nothing: the same key, once the pet is free again, places the order", async () => {
    const petId = await newPetId();
    const held = await json(await placeOrder(petId, freshKey()));
    const key = freshKey();
    await expectError(await placeOrder(petId, key), 409, "pet_not_available");
    expect((await server.api(`/store/orders/${held.id}`, { method: "PATCH", json: { status: "cancelled" } })).status).toBe(200);
    const placed = await placeOrder(petId, key);
    expect(placed.status).toBe(201);
    expect(placed.headers.get("idempotent-replayed")).toBeNull();
  });

  it("refuses the same key with another pet (422) and the key of a pet create on an order (422): nothing placed", async () => {
    const [petA, petB] = [await newPetId(), await newPetId()];
    const key = freshKey();
    expect((await placeOrder(petA, key)).status).toBe(201);
    await expectError(await placeOrder(petB, key), 422, "idempotency_key_reused");
    const petKey = freshKey();
    expect((await postPet({ name: "Keyed", categoryId: 8 }, petKey)).status).toBe(201);
    await expectError(await placeOrder(petB, petKey), 422, "idempotency_key_reused");
    expect(await json(await server.api(`/store/orders?petId=${petB}`))).toEqual([]);
    expect((await json(await server.api(`/pets/${petB}`))).status).toBe("available");
  });

  it("identical concurrent places: exactly one order; the others 409 idempotency_key_in_progress or the replay", async () => {
    const petId = await newPetId();
    const key = freshKey();
    const responses = await Promise.all(Array.from({ length: 10 }, () => placeOrder(petId, key)));
    const originals = responses.filter((response) => response.status === 201 && !response.headers.has("idempotent-replayed"));
    expect(originals).toHaveLength(1);
    const order = await json(originals[0]!);
    for (const response of responses.filter((candidate) => candidate !== originals[0])) {
      if (response.status === 409) await expectError(response, 409, "idempotency_key_in_progress");
      else expect({ status: response.status, body: await json(response) }).toEqual({ status: 201, body: order });
    }
    expect(await json(await server.api(`/store/orders?petId=${petId}`))).toEqual([order]);
  });
});

describe("across restarts, and at rest", () => {
  const opened: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((running) => running.close()));
  });
  const open = async (overrides: Parameters<typeof startTestServer>[0] = {}) => {
    const running = await startTestServer({ now: clock.now, ...overrides });
    opened.push(running);
    return running;
  };

  it("replays after a restart (lowdb: reopened file; PostgreSQL: a new instance), never holding the secret in clear", async () => {
    const first = await open();
    const petKey = freshKey();
    const pet = await answerOf(await first.api("/pets", { json: { name: "Stays", categoryId: 6 }, headers: { "idempotency-key": petKey } }));
    const keyKey = freshKey();
    const created = await json(await first.api("/keys", { json: { plan: "free", name: "secret" }, headers: { "idempotency-key": keyKey } }));
    await expectNoSecretAtRest(first.dbPath, created.key);
    await first.close();
    opened.splice(0);

    const second = await open({ db: first.dbPath });
    const petRetry = await second.api("/pets", { json: { name: "Stays", categoryId: 6 }, headers: { "idempotency-key": petKey } });
    expect(petRetry.headers.get("idempotent-replayed")).toBe("true");
    expect(await answerOf(petRetry)).toEqual(pet);
    const keyRetry = await second.api("/keys", { json: { plan: "free", name: "secret" }, headers: { "idempotency-key": keyKey } });
    expect(keyRetry.headers.get("idempotent-replayed")).toBe("true");
    expect(await json(keyRetry)).toEqual(created);
    expect(await petCount(second)).toBe(1);
    await expectNoSecretAtRest(first.dbPath, created.key);
  });

  it("gives a key's secret only to the caller who created it: another admin secret under the same key id gets 422", async () => {
    const first = await open();
    const key = freshKey();
    const created = await json(await first.api("/keys", { json: { plan: "free" }, headers: { "idempotency-key": key } }));
    await first.close();
    opened.splice(0);
    // PETSTORE_ADMIN_KEY changed between two starts: the same key id, another secret.
    const second = await open({ db: first.dbPath, adminKey: "ps_another_admin_key_0123456789abcdefghij" });
    const response = await second.api("/keys", { json: { plan: "free" }, headers: { "idempotency-key": key } });
    const text = await response.clone().text();
    expect(text).not.toContain(created.key);
    expect(await expectError(response, 422, "idempotency_key_reused")).toMatch(/another API key secret/);
  });
});

/** The secret's text is nowhere in the db file and journal, or in the PostgreSQL tables. */
async function expectNoSecretAtRest(db: string, secret: string): Promise<void> {
  if (testBackend() === "postgres") {
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    try {
      const { rows } = await client.query<{ text: string }>(
        "SELECT (SELECT coalesce(string_agg(t::text, ''), '') FROM idempotency_keys t) || (SELECT coalesce(string_agg(k::text, ''), '') FROM api_keys k) AS text",
      );
      const stored = rows[0]!.text;
      expect(stored.length).toBeGreaterThan(0);
      expect((await client.query("SELECT count(*)::int AS n FROM idempotency_keys")).rows[0].n).toBeGreaterThan(0);
      expect(stored).not.toContain(secret);
      expect(stored).not.toContain(secret.slice(3));
    } finally {
      await client.end();
    }
    return;
  }
  const files = await Promise.all([db, `${db}.journal`].map((file) => readFile(file, "utf8").catch(() => "")));
  const text = files.join("\n");
  expect(text).toMatch(/"answer":"/);
  expect(text).not.toContain(secret);
  expect(text).not.toContain(secret.slice(3));
}
