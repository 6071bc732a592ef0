// A throwaway server in this process (`serve --ephemeral --seed test/fixtures/seed.json`) on port 0.
import { fileURLToPath } from "node:url";
import { startServer, type ServeOptions } from "../../src/server/serve.js";
import { readSeedFile } from "../../src/server/seed/read-seed.js";
import { callApi, testClock, type ApiInit, type TestClock } from "../helpers/test-server.js";
import type { RunningServer } from "../../src/server/serve.js";

export const SEED_FILE = fileURLToPath(new URL("../fixtures/seed.json", import.meta.url));
export const SEED_ADMIN = "ps_Admin00000000000000000000000000000000000";
export const SEED_FREE = "ps_FreeKey000000000000000000000000000000000";

export interface Throwaway extends RunningServer {
  clock: TestClock;
  stdout(): string;
  stderr(): string;
  api(path: string, init?: ApiInit): Promise<Response>;
}

export async function startThrowaway(overrides: Partial<ServeOptions> = {}): Promise<Throwaway> {
  const clock = testClock();
  let stdout = "";
  let stderr = "";
  const options: ServeOptions = {
    port: 0,
    host: "127.0.0.1",
    db: "never-written.json",
    configFile: undefined,
    quiet: true,
    adminKey: undefined,
    now: clock.now,
    ephemeral: true,
    seed: await readSeedFile(SEED_FILE, clock.now),
    ...overrides,
  };
  const server = await startServer(options, { stdout: { write: (chunk: string) => (stdout += chunk) }, stderr: { write: (chunk: string) => (stderr += chunk) } });
  return { ...server, clock, stdout: () => stdout, stderr: () => stderr, api: (path, init) => callApi(server.baseUrl, server.adminKey ?? "", path, init) };
}
