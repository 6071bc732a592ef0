// Keys stored before scopes existed, served by the real server on both engines: each one still
// does everything it could (all five scopes), the admin stays admin, the revoked key stays out.
// Both engines run here, in the "postgres" project, since one of them needs PostgreSQL.
import { afterAll, describe, expect, it } from "vitest";
import { SCOPES } from "../../src/contract/scopes.js";
import { OLD_SECRETS, oldFileStore, oldPostgresStore } from "../helpers/old-stores.js";
import { startServeProcess, type ServeProcess } from "../helpers/serve-process.js";

const MERGE_PATCH = "application/merge-patch+json";
const servers: ServeProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

const ENGINES = {
  "the file engine (a version 2 db file and its journal)": async () => startServeProcess({ dbPath: await oldFileStore(), adminKey: null }),
  "PostgreSQL (a schema from before migration 10)": async () => {
    const { db, redis } = await oldPostgresStore();
    return startServeProcess({ dbPath: db, args: ["--redis", redis], adminKey: null });
  },
};

/** One call with `secret`; the status and the JSON body (null when there is none). */
async function call(server: ServeProcess, secret: string, method: string, path: string, body?: unknown, contentType = "application/json") {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { "content-type": contentType }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? null : (JSON.parse(text) as Record<string, unknown>) };
}

/** Every scoped operation, in an order that needs each one's result: the statuses it got. */
async function everyScope(server: ServeProcess, secret: string): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  const pet = await call(server, secret, "POST", "/pets", { name: "Kept", categoryId: 1 });
  statuses["pets:write createPet"] = pet.status;
  const petId = pet.body?.id as number;
  statuses["pets:read listPets"] = (await call(server, secret, "GET", "/pets")).status;
  statuses["pets:read getInventory"] = (await call(server, secret, "GET", "/store/inventory")).status;
  statuses["pets:write updatePet"] = (await call(server, secret, "PATCH", `/pets/${petId}`, { name: "Still kept" }, MERGE_PATCH)).status;
  const order = await call(server, secret, "POST", "/store/orders", { petId });
  statuses["orders:write placeOrder"] = order.status;
  statuses["orders:read getOrder"] = (await call(server, secret, "GET", `/store/orders/${order.body?.id as number}`)).status;
  statuses["orders:write updateOrder"] = (await call(server, secret, "PATCH", `/store/orders/${order.body?.id as number}`, { status: "cancelled" }, MERGE_PATCH)).status;
  statuses["events:read createEventTicket"] = (await call(server, secret, "POST", "/events/tickets")).status;
  statuses["pets:write deletePet"] = (await call(server, secret, "DELETE", `/pets/${petId}`)).status;
  return statuses;
}

const SERVED = {
  "pets:write createPet": 201,
  "pets:read listPets": 200,
  "pets:read getInventory": 200,
  "pets:write updatePet": 200,
  "orders:write placeOrder": 201,
  "orders:read getOrder": 200,
  "orders:write updateOrder": 200,
  "events:read createEventTicket": 200,
  "pets:write deletePet": 204,
};

describe.each(Object.entries(ENGINES))("keys from before scopes, over %s", (_engine, start) => {
  it("each live key is served on every scoped operation and states all five scopes; the admin manages keys; the revoked key is refused", async () => {
    const server = await start();
    servers.push(server);
    for (const id of ["key_v2pro", "key_v2business", "key_v2rotated", "key_v2journal"] as const) {
      expect({ id, statuses: await everyScope(server, OLD_SECRETS[id]) }).toEqual({ id, statuses: SERVED });
      const current = await call(server, OLD_SECRETS[id], "GET", "/keys/current");
      expect({ id, scopes: (current.body?.key as { scopes: string[] }).scopes }).toEqual({ id, scopes: [...SCOPES] });
    }
    const keys = await call(server, OLD_SECRETS.key_v2admin, "GET", "/keys");
    expect(keys.status).toBe(200);
    const listed = keys.body as unknown as { id: string; admin: boolean; scopes: string[] }[];
    expect(listed.map(({ id, admin, scopes }) => [id, admin, scopes])).toEqual(
      ["key_v2admin", "key_v2pro", "key_v2business", "key_v2rotated", "key_v2revoked", "key_v2journal"].map((id) => [id, id === "key_v2admin", [...SCOPES]]),
    );
    expect((await call(server, OLD_SECRETS.key_v2revoked, "GET", "/pets")).status).toBe(401);
  }, 60_000);
});
