// Issue 13, idempotent creates after a crash: kill -9 the built server under concurrent creates
// that each carry their own Idempotency-Key, restart it on the same db, and retry every request
// sent, answered or not, with its key. Since a pet and the record of its key are written in the
// same journal line, every retry is either the replay of a create that reached the disk (the
// first answer again, when the client got one) or the first create of one that did not; never a
// second pet. So in the end there are exactly as many pets as keys sent.
import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import type { Pet } from "../../src/contract/values.js";
import { tempDbPath } from "../helpers/serve-process.js";
import { killedAfterEachTest } from "./killed-servers.js";
import { listAllPets, type Api } from "./store-api.js";

const ROUNDS = 3;
const CONNECTIONS = 30;

const serve = killedAfterEachTest();

interface Sent {
  key: string;
  body: { name: string; categoryId: number };
  /** The 201 the client got before the kill, if any. */
  answer?: { pet: Pet; location: string | null };
}

function post(api: Api, sent: Sent): Promise<Response> {
  return fetch(`${api.baseUrl}/pets`, {
    method: "POST",
    headers: { authorization: `Bearer ${api.key}`, "content-type": "application/json", "idempotency-key": sent.key },
    body: JSON.stringify(sent.body),
  });
}

/** CONNECTIONS loops of idempotent creates until the server dies; every request is recorded before it is sent. */
async function createUntilKilled(api: Api, round: number, sent: Sent[], answered: () => void): Promise<void> {
  const loop = async (connection: number) => {
    for (let n = 0; ; n++) {
      const request: Sent = { key: `r${round}-c${connection}-n${n}`, body: { name: `r${round} c${connection} n${n}`, categoryId: 1 + (n % 5) } };
      sent.push(request);
      try {
        const response = await post(api, request);
        if (response.status !== 201) throw new Error(`unexpected ${response.status}: ${await response.text()}`);
        request.answer = { pet: (await response.json()) as Pet, location: response.headers.get("location") };
        answered();
      } catch (error) {
        if (error instanceof Error && error.message.startsWith("unexpected")) throw error;
        return; // the connection died with the server: maybe created, maybe not
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, connection) => loop(connection)));
}

it(`retrying every idempotent create after ${ROUNDS} kill -9s never makes a second pet and never loses one`, async () => {
  const dbPath = await tempDbPath();
  const sent: Sent[] = [];
  let unanswered = 0;

  for (let round = 1; round <= ROUNDS; round++) {
    const { server, api } = await serve(dbPath);
    let count = 0;
    const loading = createUntilKilled(api, round, sent, () => count++);
    await expect.poll(() => count, { timeout: 15_000, interval: 5 }).toBeGreaterThanOrEqual(CONNECTIONS);
    await sleep(Math.random() * 300);
    server.child.kill("SIGKILL");
    await loading;
    await server.stop();

    unanswered += sent.filter((request) => !request.answer).length;
    const restarted = await serve(dbPath);
    // Every request so far, again, with its key: a second retry of earlier rounds must still replay.
    for (const request of sent) {
      const response = await post(restarted.api, request);
      expect(response.status, request.key).toBe(201);
      const pet = (await response.json()) as Pet;
      const replayed = response.headers.get("idempotent-replayed") === "true";
      if (request.answer) {
        expect(replayed, `${request.key} was answered before the kill`).toBe(true);
        expect({ pet, location: response.headers.get("location") }).toEqual(request.answer);
      } else {
        // Not answered before the kill: created then (a replay) or never (created now); the answer is kept either way.
        expect(pet).toMatchObject(request.body);
        request.answer = { pet, location: response.headers.get("location") };
      }
    }
    const pets = await listAllPets(restarted.api);
    expect(pets.length, "pets == distinct keys sent").toBe(new Set(sent.map((request) => request.key)).size);
    expect(new Set(pets.map((pet) => pet.id)).size).toBe(pets.length);
    expect(await restarted.server.stop("SIGTERM")).toBe(0);
  }
  // The kills landed mid-load: requests were cut off without an answer, and their retries were checked.
  expect(unanswered).toBeGreaterThan(0);
}, 90_000);
