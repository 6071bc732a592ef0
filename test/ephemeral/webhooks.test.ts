// Webhooks on a throwaway server: a seed's endpoints with their fixed secrets, deliveries sent from
// memory as the file engine sends them (signed, retried, the test event, the deliveries list) to a
// receiver on 127.0.0.1, and a reset that restores the endpoints, clears the deliveries and lets
// nothing of the old world reach a receiver once it has answered.
import { readFile } from "node:fs/promises";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { json } from "../helpers/assertions.js";
import { startReceiver, type Received, type WebhookReceiver } from "../helpers/webhook-receiver.js";
import { parseSeed } from "../../src/server/seed/seed-data.js";
import { startPetstore } from "../../src/testing/index.js";
import { SEED_ADMIN, SEED_FILE, startThrowaway, type Throwaway } from "./helpers.js";

/** `whsec_` and the base64 of 32 bytes, written into the seed so the test holds it in advance. */
const SECRET = "whsec_YSBmaXhlZCBzZWNyZXQgYSB0ZXN0IGtub3dzOiAzMkI=";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function receiver(): Promise<WebhookReceiver> {
  const started = await startReceiver();
  open.push(started);
  return started;
}

/** The fixture seed plus endpoint 4 (pet.created and pet.deleted) pointing at `url`. */
async function seedWith(url: string): Promise<Record<string, unknown>> {
  const fixture = JSON.parse(await readFile(SEED_FILE, "utf8")) as Record<string, unknown>;
  return { ...fixture, webhooks: [{ id: 4, url, types: ["pet.created", "pet.deleted", "pet.created"], description: "suite receiver", secret: SECRET }, { url: `${url}/off`, enabled: false, secret: SECRET }] };
}

async function throwaway(url: string): Promise<Throwaway> {
  const server = await startThrowaway({ seed: parseSeed(await seedWith(url), Date.now), webhooks: { pollMs: 20, random: () => 0.5 } });
  open.push(server);
  return server;
}

function verified(request: Received, secret = SECRET): { id: number | null; type: string; data: Record<string, unknown> } {
  const headers = {
    "webhook-id": String(request.headers["webhook-id"]),
    "webhook-timestamp": String(request.headers["webhook-timestamp"]),
    "webhook-signature": String(request.headers["webhook-signature"]),
  };
  return new Webhook(secret).verify(request.body, headers) as never;
}

const createPet = async (server: Throwaway, name = "Rex") => json(await server.api("/pets", { json: { name, categoryId: 1 } }));
const deliveriesOf = async (server: Throwaway, id = 4) => (await json(await server.api(`/webhooks/${id}/deliveries`))) as unknown as Array<{ status: string; type: string; attempts: number }>;
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("serve --ephemeral with a seed's webhooks", () => {
  it("lists the seed's endpoints (types once each, no secret); new ones are numbered after the highest", async () => {
    const hook = await receiver();
    const server = await throwaway(hook.url);
    const listed = await json(await server.api("/webhooks"));
    expect(listed).toEqual([
      expect.objectContaining({ id: 4, url: hook.url, types: ["pet.created", "pet.deleted"], description: "suite receiver", enabled: true }),
      expect.objectContaining({ id: 5, url: `${hook.url}/off`, types: [], description: null, enabled: false }),
    ]);
    expect(JSON.stringify(listed)).not.toContain("whsec_");
    expect(await json(await server.api("/webhooks", { json: { url: `${hook.url}/new` } }))).toMatchObject({ id: 6 });
  });

  it("says at start that loopback and private endpoints may be called, as --webhooks-allow-private does", async () => {
    const hook = await receiver();
    const server = await throwaway(hook.url);
    expect(server.stderr()).toContain("webhooks: --ephemeral (as with --webhooks-allow-private): endpoints on loopback and private networks may be called");
  });

  it("delivers a pet.created to 127.0.0.1, signed with the seed's secret, and lists it as succeeded", async () => {
    const hook = await receiver();
    const server = await throwaway(hook.url);
    const pet = await createPet(server);
    const [request] = await hook.waitFor(1);
    expect(hook.received).toHaveLength(1);
    expect(verified(request!)).toMatchObject({ type: "pet.created", data: { id: pet.id, name: "Rex" } });
    await expect.poll(() => deliveriesOf(server)).toEqual([expect.objectContaining({ type: "pet.created", status: "succeeded", attempts: 1 })]);
  });

  it("retries a failed attempt and sends the test event", async () => {
    const hook = await receiver();
    const server = await throwaway(hook.url);
    hook.answer({ status: 503, headers: { "retry-after": "1" } });
    await createPet(server);
    await hook.waitFor(1);
    hook.answer({ status: 204 });
    await expect.poll(() => deliveriesOf(server)).toEqual([expect.objectContaining({ status: "pending", attempts: 1 })]);
    server.clock.advance(60_000);
    await hook.waitFor(2);
    expect(hook.received[1]!.headers["webhook-id"]).toBe(hook.received[0]!.headers["webhook-id"]);
    expect((await server.api("/webhooks/4/test", { method: "POST" })).status).toBe(200);
    const [, , test] = await hook.waitFor(3);
    expect(verified(test!)).toMatchObject({ id: null, type: "webhook.test" });
  });
});

describe("serve --ephemeral without a seed's webhooks", () => {
  it("delivers to an endpoint added through the API, as the file engine does", async () => {
    const hook = await receiver();
    const server = await startThrowaway({ webhooks: { allowPrivate: true, pollMs: 20 } });
    open.push(server);
    const { secret } = (await json(await server.api("/webhooks", { json: { url: hook.url } }))) as { secret: string };
    await createPet(server, "Api");
    const [request] = await hook.waitFor(1, 3_000);
    expect(verified(request!, secret)).toMatchObject({ type: "pet.created", data: { name: "Api" } });
  });
});

describe("POST /v1/admin/reset with webhooks", () => {
  it("restores the seed's endpoints exactly and clears every delivery", async () => {
    const hook = await receiver();
    const server = await throwaway(hook.url);
    const seeded = await json(await server.api("/webhooks"));
    await createPet(server);
    await hook.waitFor(1);
    await expect.poll(() => deliveriesOf(server)).toHaveLength(1);
    expect((await server.api("/webhooks/4", { method: "PATCH", json: { enabled: false, description: "changed" } })).status).toBe(200);
    expect((await server.api("/webhooks/5", { method: "DELETE" })).status).toBe(204);
    expect((await server.api("/webhooks", { json: { url: `${hook.url}/new` } })).status).toBe(201);

    expect((await server.api("/admin/reset", { method: "POST" })).status).toBe(204);
    expect(await json(await server.api("/webhooks"))).toEqual(seeded);
    expect(await deliveriesOf(server)).toEqual([]);
    expect(await json(await server.api("/webhooks", { json: { url: `${hook.url}/new` } }))).toMatchObject({ id: 6 });
  });

  it("cuts off an attempt under way and drops pending retries: nothing of the old world arrives once it answered", async () => {
    const hanging = await receiver();
    const failing = await receiver();
    const server = await throwaway(hanging.url);
    expect((await server.api("/webhooks", { json: { url: failing.url } })).status).toBe(201);
    hanging.answer("hang");
    failing.answer({ status: 500 });
    await createPet(server);
    await hanging.waitFor(1);
    await failing.waitFor(1);
    await expect.poll(() => deliveriesOf(server, 6)).toEqual([expect.objectContaining({ status: "pending", attempts: 1 })]);

    expect((await server.api("/admin/reset", { method: "POST" })).status).toBe(204);
    // Cut off by the reset, long before the attempt's own 10 s timeout.
    await expect.poll(() => hanging.cutOff(), { timeout: 2_000 }).toBe(1);
    hanging.answer({ status: 200 });
    failing.answer({ status: 200 });
    server.clock.advance(3_600_000);
    await settle(300);
    expect(hanging.received).toHaveLength(1);
    expect(failing.received).toHaveLength(1);

    // The new world delivers its own changes.
    await createPet(server, "After");
    const [, after] = await hanging.waitFor(2);
    expect(verified(after!)).toMatchObject({ type: "pet.created", data: { name: "After" } });
  });
});

describe("startPetstore with a seed's webhooks", () => {
  it("delivers from memory to a receiver on 127.0.0.1", async () => {
    const hook = await receiver();
    const petstore = await startPetstore({ seed: await seedWith(hook.url) });
    open.push(petstore);
    const headers = { authorization: `Bearer ${SEED_ADMIN}`, "content-type": "application/json" };
    const created = await fetch(`${petstore.baseUrl}/pets`, { method: "POST", headers, body: JSON.stringify({ name: "Tom", categoryId: 2 }) });
    expect(created.status).toBe(201);
    const [request] = await hook.waitFor(1);
    expect(verified(request!)).toMatchObject({ type: "pet.created", data: { name: "Tom" } });
  });
});
