// `pets import` paces itself by the server's rate-limit headers: with a key of 30 requests a
// minute, 75 records take three windows and not one 429, by the server's own count (its
// /metrics, not the client's view). The windows are the server's real minutes (they cannot be
// shortened), so this one test waits out two resets: under 2.5 minutes.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startServeProcess, type ServeProcess } from "../../helpers/serve-process.js";
import { runCli } from "../helpers/run-cli.js";

const METRICS_TOKEN = "metrics_token_0123456789";
let server: ServeProcess;
let dir: string;

beforeAll(async () => {
  server = await startServeProcess({ args: ["--metrics-token", METRICS_TOKEN] });
  dir = await mkdtemp(join(tmpdir(), "petstore-pacing-"));
});
afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

/** `petstore_http_requests_total` for POST /v1/pets, by status, as the server counted them. */
async function postsByStatus(): Promise<Record<string, number>> {
  const response = await fetch(`${server.origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const counts: Record<string, number> = {};
  for (const match of (await response.text()).matchAll(/^petstore_http_requests_total\{route="\/v1\/pets",method="POST",status="(\d+)"\} (\d+)$/gm)) {
    counts[match[1]!] = Number(match[2]);
  }
  return counts;
}

it("imports 75 records with a key of 30 a minute, waiting for the resets, with zero 429s", async () => {
  const env = { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: server.adminKey };
  const created = await runCli(["keys", "create", "--plan", "enterprise", "--per-minute", "30", "--per-day", "1000", "--json"], { env });
  const key = (JSON.parse(created.stdout) as { key: string }).key;
  const path = join(dir, "pets.ndjson");
  await writeFile(path, Array.from({ length: 75 }, (_, i) => `{"name":"Paced${i}","categoryId":1}\n`).join(""));
  const result = await runCli(["pets", "import", path, "--json"], { env: { ...env, PETSTORE_API_KEY: key } });
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout)).toMatchObject({ total: 75, created: 75, replayed: 0, failed: [] });
  expect(result.stderr).toMatch(/^Waiting \d+s: the key's quota is spent until its window resets$/m);
  expect(await postsByStatus()).toEqual({ "201": 75 });
}, 150_000);
