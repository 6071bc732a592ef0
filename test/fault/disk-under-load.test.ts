// Issue 21: the file store's disk fills up in the middle of a batch, under a steady load of
// creates. The kernel's file size limit (prlimit on the running server, see store-file-size.ts)
// cuts a journal append short at an exact byte and then refuses it (EFBIG), as a full disk
// would (ENOSPC): both are one failed write to the server. A tmpfs or loop mount would need
// CAP_SYS_ADMIN, which CI's container may not have; the file size limit works as root without it.
import { readFile, stat } from "node:fs/promises";
import { afterEach, expect, it } from "vitest";
import { expectOkOr503, petLines, retryRefused, sleep, DEADLINE_MS } from "../helpers/load-outcomes.js";
import { startServeProcess, type ServeProcess } from "../helpers/serve-process.js";
import { loadCreate, steadyLoad } from "../helpers/steady-load.js";
import { listAllPets } from "./store-api.js";
import { limitFileSize } from "./store-file-size.js";

const RATE = 40;

const running: ServeProcess[] = [];
afterEach(async () => void (await Promise.all(running.splice(0).map((server) => server.stop("SIGKILL")))));

async function serve(dbPath?: string): Promise<ServeProcess> {
  const server = await startServeProcess({ dbPath, args: ["--quiet"] });
  running.push(server);
  return server;
}

/** Every line of the journal is whole: JSON, ended by a newline. */
async function expectWholeLines(journal: string): Promise<number> {
  const text = await readFile(journal, "utf8");
  expect(text === "" || text.endsWith("\n")).toBe(true);
  const lines = text.split("\n").slice(0, -1);
  for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  return lines.length;
}

it("refuses the batch the disk cut short with 503, loses no 201, and the next start replays the journal cleanly", { timeout: 30_000 }, async () => {
  const server = await serve();
  const target = { baseUrl: server.baseUrl, key: server.adminKey };
  const journal = `${server.dbPath}.journal`;
  const load = steadyLoad(RATE, (n) => loadCreate(target, n, DEADLINE_MS));
  await sleep(1_000);
  // Room for 37 more bytes: the next batch's line is written in part, then refused.
  await limitFileSize(server.child.pid!, (await stat(journal)).size + 37);
  const fullAt = load.elapsed();
  await sleep(1_500);
  const roomAt = load.elapsed();
  await limitFileSize(server.child.pid!, "unlimited");
  await sleep(1_500);
  const outcomes = await load.stop();

  expectOkOr503(outcomes, 201);
  // A batch already on its way at the limit may still have fit, and a create sent in the last
  // moments before the limit is lifted may be written after it (a 201 at 2,649.8 ms of a run on
  // 2026-11-26, in a window that ended about then): every one in between was refused.
  const whileFull = outcomes.filter((outcome) => outcome.startedAt > fullAt + 200 && outcome.startedAt < roomAt - 200);
  expect(whileFull.length).toBeGreaterThan(RATE / 4);
  expect(whileFull.filter((outcome) => outcome.status !== 503)).toEqual([]);
  const recovered = outcomes.filter((outcome) => outcome.startedAt > roomAt + 500);
  expect(recovered.length).toBeGreaterThan(RATE / 4);
  expect(recovered.filter((outcome) => outcome.status !== 201)).toEqual([]);
  expect(await expectWholeLines(journal)).toBeGreaterThan(0);

  // A crash now: the next start must replay the journal, and find nothing torn to cut off.
  await server.stop("SIGKILL");
  const restarted = await serve(server.dbPath);
  const api = { baseUrl: restarted.baseUrl, key: restarted.adminKey };
  const acknowledged = outcomes.filter((outcome) => outcome.status === 201).map((outcome) => outcome.body as { id: number; name: string });
  expect(petLines(await listAllPets(api))).toEqual(petLines(acknowledged));
  // The client's retries of the refused creates: each is created once, now.
  const all = await retryRefused(api, outcomes);
  expect(petLines(await listAllPets(api))).toEqual(petLines(all.values()));
  // The lock the killed server left is the only thing to say: no torn line cut off, no bad line.
  expect(restarted.stderr()).toMatch(/^warning: took over the stale lock \S+\.lock: its process \(pid \d+\) is gone\n$/);
  expect(await restarted.stop("SIGTERM")).toBe(0);
  expect(restarted.stderr().split("\n").filter((line) => /warning|error/i.test(line))).toHaveLength(1);
});
