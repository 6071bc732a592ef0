// SIGTERM while creates are in flight, against the built `petstore serve`: every request gets a
// complete answer or a clean refusal (no response at all), the process exits 0, and after a
// restart the API lists exactly the pets that were answered 201: none lost, none unanswered.
import { Agent, request } from "undici";
import { afterAll, expect, it } from "vitest";
import { startServeProcess, type ServeProcess } from "../helpers/serve-process.js";
import { json } from "../helpers/assertions.js";
import { callApi } from "../helpers/test-server.js";

const WORKERS = 40;
/** SIGTERM once this many creates have been answered, so the stop lands mid-stream. */
const CREATED_BEFORE_STOP = 150;

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status: string;
}

interface Tally {
  created: Pet[];
  /** Failed before a status line arrived: the server never took the request. */
  refused: string[];
  /** A status line arrived, then the answer broke off: never allowed. */
  truncated: string[];
  /** Any other complete answer. */
  other: string[];
}

const agent = new Agent({ connections: WORKERS, pipelining: 1 });
afterAll(() => agent.close());

/** One client: creates pets back to back on a keep-alive connection until the server refuses it. */
async function worker(serve: ServeProcess, key: string, index: number, tally: Tally, onCreated: () => void): Promise<void> {
  for (let n = 0; ; n++) {
    const pet = { name: `w${index}-${n}`, categoryId: index + 1 };
    let response;
    try {
      response = await request(`${serve.baseUrl}/pets`, {
        method: "POST",
        dispatcher: agent,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(pet),
        headersTimeout: 20_000,
        bodyTimeout: 20_000,
      });
    } catch (error) {
      tally.refused.push(String((error as { code?: string }).code ?? error));
      return;
    }
    let text: string;
    try {
      text = await response.body.text();
      const body = JSON.parse(text) as Pet;
      if (response.statusCode === 201) {
        expect(body).toMatchObject(pet);
        tally.created.push(body);
        onCreated();
      } else {
        tally.other.push(`${response.statusCode} ${text}`);
      }
    } catch (error) {
      tally.truncated.push(`${response.statusCode}: ${String(error)}`);
      return;
    }
  }
}

async function listAll(baseUrl: string, key: string): Promise<Pet[]> {
  const pets: Pet[] = [];
  let url: string | undefined = `${baseUrl}/pets?limit=100`;
  while (url) {
    const response = await callApi(baseUrl, key, url);
    expect(response.status).toBe(200);
    pets.push(...((await json(response)) as Pet[]));
    url = /<([^>]+)>; rel="next"/.exec(response.headers.get("link") ?? "")?.[1];
  }
  return pets;
}

it("SIGTERM under a stream of creates: complete answers or clean refusals, exit 0, every 201 on disk", async () => {
  const serve = await startServeProcess({ args: ["--quiet"] });
  const created = await callApi(serve.baseUrl, serve.adminKey, "/keys", { json: { plan: "enterprise", perMinute: 10_000_000, perDay: 10_000_000 } });
  const { key } = (await created.json()) as { key: string };

  const tally: Tally = { created: [], refused: [], truncated: [], other: [] };
  let exited: Promise<number | null> | undefined;
  const onCreated = () => {
    if (exited === undefined && tally.created.length >= CREATED_BEFORE_STOP) exited = serve.stop("SIGTERM");
  };
  // Each worker ends at its first refusal, which the stop brings about.
  await Promise.all(Array.from({ length: WORKERS }, (_, index) => worker(serve, key, index, tally, onCreated)));
  expect(await exited).toBe(0);
  console.log(`graceful stop: ${tally.created.length} created, ${tally.refused.length} refused (${[...new Set(tally.refused)].join(", ")})`);

  expect(tally.truncated).toEqual([]);
  expect(tally.other).toEqual([]);
  expect(tally.created.length).toBeGreaterThanOrEqual(CREATED_BEFORE_STOP);
  expect(serve.stderr()).toMatch(/SIGTERM: finishing in-flight requests, then stopping\nstopped\n/);

  const restarted = await startServeProcess({ dbPath: serve.dbPath, args: ["--quiet"] });
  try {
    const stored = (await listAll(restarted.baseUrl, key)).filter((pet) => /^w\d+-\d+$/.test(pet.name));
    const byId = (a: Pet, b: Pet) => a.id - b.id;
    // Equal sets: no 201 lost, and no pet stored whose create went unanswered.
    expect(stored.sort(byId)).toEqual([...tally.created].sort(byId));
  } finally {
    expect(await restarted.stop()).toBe(0);
  }
}, 30_000);
