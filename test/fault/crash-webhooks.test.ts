// kill -9 the built server while pets are created and a receiver takes every delivery, restart it
// on the same db: every acknowledged create reaches the receiver at least once (the deliveries
// were on the create's own journal line, so the restart finds the ones not yet sent).
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, expect, it } from "vitest";
import type { Pet } from "../../src/contract/values.js";
import { startServeProcess, tempDbPath, type ServeProcess } from "../helpers/serve-process.js";
import { startReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.js";
import { postPet, type Api } from "./store-api.js";

const CONNECTIONS = 10;
const running: (ServeProcess | WebhookReceiver)[] = [];
afterEach(async () => {
  for (const item of running.splice(0)) await ("child" in item ? item.stop("SIGKILL") : item.close());
});

async function serve(dbPath: string): Promise<{ server: ServeProcess; api: Api }> {
  const server = await startServeProcess({ dbPath, args: ["--quiet", "--webhooks-allow-private"] });
  running.push(server);
  return { server, api: { baseUrl: server.baseUrl, key: server.adminKey } };
}

async function createUntilKilled(api: Api, tag: string, acknowledged: number[]): Promise<void> {
  for (let n = 0; ; n++) {
    try {
      const response = await postPet(api, { name: `${tag} ${n}`, categoryId: 1 });
      if (response.status !== 201) return;
      acknowledged.push(((await response.json()) as Pet).id);
    } catch {
      return;
    }
  }
}

/** Pet ids of the pet.created deliveries the receiver got. */
const deliveredPets = (receiver: WebhookReceiver) =>
  new Set(receiver.received.map((request) => JSON.parse(request.body) as { type: string; data: { id: number } }).filter((body) => body.type === "pet.created").map((body) => body.data.id));

it("delivers every acknowledged create at least once after kill -9 and a restart", { timeout: 60_000 }, async () => {
  const receiver = await startReceiver();
  running.push(receiver);
  // Nothing is answered before the kill: every delivery is still pending (or in flight) when it dies.
  receiver.answer("hang");
  const dbPath = await tempDbPath();
  const first = await serve(dbPath);
  const added = await fetch(`${first.api.baseUrl}/webhooks`, {
    method: "POST",
    headers: { authorization: `Bearer ${first.api.key}`, "content-type": "application/json" },
    body: JSON.stringify({ url: receiver.url, types: ["pet.created"] }),
  });
  expect(added.status).toBe(201);
  const acknowledged: number[] = [];
  const loops = Array.from({ length: CONNECTIONS }, (_, i) => createUntilKilled(first.api, `c${i}`, acknowledged));
  // Killed under load once enough creates were answered (this machine's speed varies).
  for (let waited = 0; acknowledged.length < 40 && waited < 15_000; waited += 50) await sleep(50);
  await first.server.stop("SIGKILL");
  await Promise.all(loops);
  expect(acknowledged.length).toBeGreaterThanOrEqual(40);
  expect(deliveredPets(receiver).size).toBeLessThanOrEqual(4);
  receiver.answer({ status: 200 });
  await serve(dbPath);
  const deadline = Date.now() + 20_000;
  let missing = acknowledged.filter((id) => !deliveredPets(receiver).has(id));
  while (missing.length > 0 && Date.now() < deadline) {
    await sleep(100);
    missing = acknowledged.filter((id) => !deliveredPets(receiver).has(id));
  }
  expect(missing, `${missing.length} of ${acknowledged.length} acknowledged creates never delivered`).toEqual([]);
});
