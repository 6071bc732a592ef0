// `serve --seed` over a db (a file, or PostgreSQL in the postgres project): the seed's webhook
// endpoints are written with their ids and fixed secrets, new ones continue after the highest, and
// deliveries go out signed with the seed's secret.
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { json } from "../helpers/assertions.js";
import { startTestServer } from "../helpers/test-server.js";
import { startReceiver } from "../helpers/webhook-receiver.js";
import { parseSeed } from "../../src/server/seed/seed-data.js";

const SECRET = "whsec_YSBmaXhlZCBzZWNyZXQgYSB0ZXN0IGtub3dzOiAzMkI=";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

describe("serve --seed with webhooks, over a db", () => {
  it("writes the endpoints with their ids and secrets; deliveries verify with the seed's secret", async () => {
    const hook = await startReceiver();
    open.push(hook);
    const seed = parseSeed({ webhooks: [{ id: 8, url: hook.url, types: ["pet.created"], secret: SECRET }] }, Date.now);
    const server = await startTestServer({ seed, webhooks: { allowPrivate: true, pollMs: 20 } });
    open.push(server);
    expect(await json(await server.api("/webhooks"))).toEqual([expect.objectContaining({ id: 8, url: hook.url, types: ["pet.created"], enabled: true })]);
    expect(await json(await server.api("/webhooks", { json: { url: `${hook.url}/new` } }))).toMatchObject({ id: 9 });
    const pet = await json(await server.api("/pets", { json: { name: "Seeded", categoryId: 1 } }));
    const [request] = await hook.waitFor(1);
    const headers = Object.fromEntries(["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [name, String(request!.headers[name])]));
    expect(new Webhook(SECRET).verify(request!.body, headers)).toMatchObject({ type: "pet.created", data: { id: pet.id } });
  });
});
